import CSystem
import Glibc

/// Many SSE streams to one server, plus the short publish requests of the fan-out bench, on one epoll loop.
/// Streams are opened `maxPending` at a time (or all at once for the storm) from spread source addresses
/// (``Dialer``); each stream's bytes go through an ``EventScanner``, so every event is parsed exactly. A stream is
/// ready when its response head arrived (`.head`) or its first `rows` event did (`.firstRows`).
/// Thread rules: confined to the thread that made it (the load client's only thread).
final class StreamFleet {
    enum Readiness { case head, firstRows }

    final class Stream {
        let number: Int
        var request: [UInt8]
        var scanner = EventScanner()
        /// With `acceptGzip`: the coded body, decoded into `scanner`.
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
    private var decoded: [UInt8] = []
    private(set) var streams: [Stream] = []
    private(set) var readyCount = 0
    private(set) var closedCount = 0
    private(set) var failedConnects = 0
    private(set) var badStatuses = 0
    private(set) var outstandingPublishes = 0
    private(set) var failedPublishes = 0
    /// Called for every complete event of every stream, with the wall-clock time it was parsed.
    var onEvent: (Stream, EventScanner.Event, Int64) -> Void = { _, _, _ in }
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
    private var entries: [Int32: Entry] = [:]
    private let epollFD = csystem_epoll_create()
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    init(port: Int, path: String, readiness: Readiness, acceptGzip: Bool = false) {
        self.port = UInt16(port)
        self.path = path
        self.readiness = readiness
        self.acceptGzip = acceptGzip
    }

    deinit {
        for fd in entries.keys { close(fd) }
        close(epollFD)
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
        entries[fd] = .publish(Publish(request: Array(head.utf8) + body))
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
            let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                + (acceptGzip ? "Accept-Encoding: gzip\r\n\r\n" : "\r\n")
            let stream = Stream(number: number, request: Array(request.utf8), openedAt: wallMicros())
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
            entries[fd] = .stream(stream)
            _ = csystem_epoll_ctl(epollFD, csystem_EPOLL_CTL_ADD, fd, csystem_EPOLLOUT | csystem_EPOLLIN)
            // On loopback the handshake is done when `connect` returns; if it is not, the send takes nothing and
            // EPOLLOUT sends the request as in the default order.
            if requestsAtConnect { stream.request = send(fd, stream.request) }
        }
    }

    private func handle(_ fd: Int32, _ events: UInt32) {
        guard let entry = entries[fd] else { return }
        if events & csystem_EPOLLOUT != 0 {
            switch entry {
            case .stream(let stream): stream.request = send(fd, stream.request)
            case .publish(let publish): publish.request = send(fd, publish.request)
            }
        }
        guard events & (csystem_EPOLLIN | csystem_EPOLLHUP | csystem_EPOLLERR) != 0 else { return }
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0, errno == EAGAIN || errno == EINTR { return }
        switch entry {
        case .stream(let stream):
            if count > 0 {
                buffer.withUnsafeBytes { read in
                    let bytes = UnsafeRawBufferPointer(rebasing: read[0..<count])
                    if stream.gzip == nil { return stream.scanner.append(bytes) }
                    decoded.removeAll(keepingCapacity: true)
                    stream.gzip?.decode(bytes, with: inflater, into: &decoded)
                    decoded.withUnsafeBytes { stream.scanner.append($0) }
                }
                scan(stream, fd)
            } else {
                finish(fd, stream)
            }
        case .publish(let publish):
            if count > 0 {
                publish.response.append(contentsOf: buffer[0..<count])
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

    private func scan(_ stream: Stream, _ fd: Int32) {
        while let event = stream.scanner.next() {
            let now = wallMicros()
            if readiness == .firstRows, stream.readyAt == nil, event.name == "rows" { markReady(stream, now) }
            onEvent(stream, event, now)
        }
        guard let status = stream.scanner.status else { return }
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

    private func forget(_ fd: Int32) {
        entries[fd] = nil
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
