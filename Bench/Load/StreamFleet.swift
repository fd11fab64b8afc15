import CSystem
import Glibc

/// Many SSE streams to one server, plus the short publish requests of the fan-out bench, on one epoll loop.
/// Streams are opened `maxPending` at a time (or all at once for the storm) from spread source addresses
/// (``Dialer``); each stream's bytes are parsed exactly, by the same SSE rules either way: with an `onEvent`
/// consumer (fan-out, scale), through an ``EventScanner``, which hands over every event with its data; without one
/// (storm, idle), through an ``EventSkimmer``, which reads each received byte where it lies and only counts the
/// events, so what the client spends per viewer does not grow with what the server sends it. A stream is ready when
/// its response head arrived (`.head`), its first complete `rows` event did (`.firstRows`), or its first complete event
/// of any name did (`.firstEvent`: a peer such as nchan that sends a stored message to each new subscriber).
/// Thread rules: confined to the thread that made it (the load client's only thread).
final class StreamFleet {
    enum Readiness { case head, firstRows, firstEvent }

    final class Stream {
        let number: Int
        var request: [UInt8]
        /// The stream's parser: `scanner` with an `onEvent` consumer, else `skimmer`.
        var scanner = EventScanner()
        var skimmer = EventSkimmer()
        /// With `acceptGzip`: the coded body, decoded into the parser.
        var gzip: GzipBody?
        /// Wall-clock microseconds when the connect started, and when the stream became ready.
        let openedAt: Int64
        var readyAt: Int64?
        var closed = false
        init(number: Int, request: [UInt8], openedAt: Int64) {
            self.number = number
            self.request = request
            self.openedAt = openedAt
        }
    }

    private final class Publish {
        var request: [UInt8]
        var response: [UInt8] = []
        init(request: [UInt8]) { self.request = request }
    }

    private enum Entry { case stream(Stream), publish(Publish) }

    let port: UInt16
    let path: String
    let readiness: Readiness
    /// Streams ask for gzip (`Accept-Encoding: gzip`) and decode it; `inflater.failures` counts blocks that failed.
    let acceptGzip: Bool
    let inflater = BlockInflater()
    private(set) var streams: [Stream] = []
    private(set) var readyCount = 0
    private(set) var closedCount = 0
    private(set) var failedConnects = 0
    private(set) var badStatuses = 0
    private(set) var outstandingPublishes = 0
    private(set) var failedPublishes = 0
    /// Called for every complete event of every stream, with the wall-clock time it was parsed. Set it before
    /// `open` (whether it is set picks each stream's parser); nil: no event is materialized, only counted.
    var onEvent: ((Stream, EventScanner.Event, Int64) -> Void)?
    /// Called when a publish request has its whole response: the status and the body.
    var onPublished: (Int, [UInt8]) -> Void = { _, _ in }
    /// Each stream's request is sent right after its connect (a browser's order) instead of when the loop next
    /// finds the socket writable, after every connect this pass started (the storm's default: all connects first).
    var requestsAtConnect = false
    /// Where the streams' source addresses start (host byte order) and how many streams each takes (``Dialer``).
    var firstSource = Dialer.firstSource
    var perAddress = Dialer.perAddress
    private var target = 0
    private var maxPending = 0
    /// Every stream's request (the same bytes, shared until sent).
    private let streamRequest: [UInt8]
    /// What each open descriptor is, indexed by the descriptor.
    private var entries: [Entry?] = []
    private let epollFD = csystem_epoll_create()
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    init(port: Int, path: String, readiness: Readiness, acceptGzip: Bool = false) {
        self.port = UInt16(port)
        self.path = path
        self.readiness = readiness
        self.acceptGzip = acceptGzip
        streamRequest = Array(("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
            + (acceptGzip ? "Accept-Encoding: gzip\r\n\r\n" : "\r\n")).utf8)
    }

    deinit {
        for fd in entries.indices where entries[fd] != nil { close(Int32(fd)) }
        close(epollFD)
        buffer.deallocate()
    }

    /// Asks for `count` streams in all, opened `maxPending` at a time as `pump` runs.
    func open(_ count: Int, maxPending: Int) {
        target = count
        self.maxPending = maxPending
    }

    /// Starts a POST of `body` to `path` on a connection of its own (`Connection: close`), to the streams' port or
    /// to `port` (a cluster's instances, one by one).
    func publish(path: String, body: [UInt8], port: UInt16? = nil) {
        let head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let fd = Dialer.connect(port: port ?? self.port, connection: 0)
        guard fd >= 0 else {
            failedPublishes += 1
            return
        }
        remember(fd, .publish(Publish(request: Array(head.utf8) + body)))
        _ = csystem_epoll_ctl(epollFD, csystem_EPOLL_CTL_ADD, fd, csystem_EPOLLOUT | csystem_EPOLLIN)
        outstandingPublishes += 1
    }

    /// Runs the loop until `deadline` (a `ContinuousClock` instant) or until `done()` holds; `tick` runs about
    /// every `tickMilliseconds` (and at least once per wake).
    func pump(until deadline: ContinuousClock.Instant, tickMilliseconds: Int = 10, done: () -> Bool = { false },
              tick: () -> Void = {}) {
        var fds = [Int32](repeating: 0, count: 256)
        var events = [UInt32](repeating: 0, count: 256)
        while ContinuousClock.now < deadline, !done() {
            openMore()
            tick()
            let count = csystem_epoll_wait(epollFD, &fds, &events, 256, Int32(tickMilliseconds))
            for slot in 0..<max(0, Int(count)) {
                handle(fds[slot], events[slot])
            }
        }
    }

    private func openMore() {
        while streams.count < target, streams.count - readyCount - closedCount < maxPending {
            let number = streams.count
            let stream = Stream(number: number, request: streamRequest, openedAt: wallMicros())
            if acceptGzip { stream.gzip = GzipBody() }
            streams.append(stream)
            let fd = Dialer.connect(port: port, from: Dialer.sourceAddress(number, first: firstSource,
                                                                           perAddress: perAddress))
            guard fd >= 0 else {
                failedConnects += 1
                stream.closed = true
                closedCount += 1
                continue
            }
            remember(fd, .stream(stream))
            _ = csystem_epoll_ctl(epollFD, csystem_EPOLL_CTL_ADD, fd, csystem_EPOLLOUT | csystem_EPOLLIN)
            // On loopback the handshake is done when `connect` returns; if it is not, the send takes nothing and
            // EPOLLOUT sends the request as in the default order.
            if requestsAtConnect { stream.request = send(fd, stream.request) }
        }
    }

    private func handle(_ fd: Int32, _ events: UInt32) {
        guard fd >= 0, Int(fd) < entries.count, let entry = entries[Int(fd)] else { return }
        if events & csystem_EPOLLOUT != 0 {
            switch entry {
            case .stream(let stream): stream.request = send(fd, stream.request)
            case .publish(let publish): publish.request = send(fd, publish.request)
            }
        }
        guard events & (csystem_EPOLLIN | csystem_EPOLLHUP | csystem_EPOLLERR) != 0 else { return }
        let count = recv(fd, buffer.baseAddress, buffer.count, 0)
        if count < 0, errno == EAGAIN || errno == EINTR { return }
        switch entry {
        case .stream(let stream):
            if count > 0 {
                parse(UnsafeRawBufferPointer(rebasing: buffer[..<count]), stream)
                scan(stream, fd)
            } else {
                finish(fd, stream)
            }
        case .publish(let publish):
            if count > 0 {
                publish.response.append(contentsOf: buffer[..<count])
            } else {
                forget(fd)
                outstandingPublishes -= 1
                let (status, body) = Self.split(publish.response)
                if !(200..<300).contains(status) { failedPublishes += 1 }
                onPublished(status, body)
            }
        }
    }

    /// Sends what the socket takes of `bytes`; returns the rest. Once all is sent, only reads are watched.
    private func send(_ fd: Int32, _ bytes: [UInt8]) -> [UInt8] {
        guard !bytes.isEmpty else { return bytes }
        let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        let rest = sent > 0 ? Array(bytes[sent...]) : bytes
        if rest.isEmpty { _ = csystem_epoll_ctl(epollFD, csystem_EPOLL_CTL_MOD, fd, csystem_EPOLLIN) }
        return rest
    }

    /// Feeds a read of `stream` (inflated first with gzip) to its parser, where the bytes lie.
    private func parse(_ bytes: UnsafeRawBufferPointer, _ stream: Stream) {
        switch (stream.gzip != nil, onEvent != nil) {
        case (false, true): stream.scanner.append(bytes)
        case (false, false): stream.skimmer.scan(bytes)
        case (true, true): stream.gzip?.decode(bytes, with: inflater) { stream.scanner.append($0) }
        case (true, false): stream.gzip?.decode(bytes, with: inflater) { stream.skimmer.scan($0) }
        }
    }

    private func scan(_ stream: Stream, _ fd: Int32) {
        let status: Int?
        if let onEvent {
            while let event = stream.scanner.next() {
                let now = wallMicros()
                let counts = readiness == .firstEvent || (readiness == .firstRows && event.name == "rows")
                if counts, stream.readyAt == nil { markReady(stream, now) }
                onEvent(stream, event, now)
            }
            status = stream.scanner.status
        } else {
            let events = readiness == .firstRows ? stream.skimmer.rowsEvents : stream.skimmer.events
            if readiness != .head, stream.readyAt == nil, events > 0 {
                markReady(stream, wallMicros())
            }
            status = stream.skimmer.status
        }
        guard let status else { return }
        if status != 200 {
            badStatuses += 1
            finish(fd, stream)
        } else if readiness == .head, stream.readyAt == nil {
            markReady(stream, wallMicros())
        }
    }

    private func markReady(_ stream: Stream, _ now: Int64) {
        stream.readyAt = now
        readyCount += 1
    }

    private func finish(_ fd: Int32, _ stream: Stream) {
        forget(fd)
        guard !stream.closed else { return }
        stream.closed = true
        closedCount += 1
    }

    private func remember(_ fd: Int32, _ entry: Entry) {
        if Int(fd) >= entries.count { entries += [Entry?](repeating: nil, count: Int(fd) + 1 - entries.count) }
        entries[Int(fd)] = entry
    }

    private func forget(_ fd: Int32) {
        entries[Int(fd)] = nil
        _ = csystem_epoll_ctl(epollFD, csystem_EPOLL_CTL_DEL, fd, 0)
        close(fd)
    }

    /// The status code and body of a whole HTTP/1.1 response (0 when there is no status line).
    private static func split(_ response: [UInt8]) -> (Int, [UInt8]) {
        let line = String(decoding: response.prefix(32), as: UTF8.self)
        let status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        var index = 0
        while index + 3 < response.count {
            if response[index] == 13, response[index + 1] == 10, response[index + 2] == 13, response[index + 3] == 10 {
                return (status, Array(response[(index + 4)...]))
            }
            index += 1
        }
        return (status, [])
    }
}
