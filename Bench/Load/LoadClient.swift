import CSystem
import Glibc

/// The load client's event loop: one thread, one epoll set, non-blocking sockets to 127.0.0.1, from 127.0.0.2-17.
/// Each viewer holds a stream; it asks for the next batch after each `rows` event (a short POST connection),
/// drops its stream after `churnAfter` batches and resumes with Last-Event-ID; after `complete` it checks that
/// it saw every row index exactly once, expects 204 on resuming (a live table: `complete` again, on a stream that
/// stays open), and a new viewer takes its place. A live table's change events are checked (``LiveChange``). Every
/// `gzipEvery`-th viewer asks for gzip as a browser does (`Accept-Encoding: gzip`) and decodes its stream
/// (``GzipBody``); a block that does not inflate is a violation.
/// Thread rules: confined to the thread that calls `run()`.
final class LoadClient {
    private enum Role { case stream(Viewer), post(Viewer) }

    private final class Socket {
        let role: Role
        var request: [UInt8]
        var scanner = EventScanner()
        /// A gzip viewer's stream: its bytes are decoded before the scanner reads them.
        var gzip: GzipBody?
        init(role: Role, request: [UInt8], gzip: Bool = false) {
            self.role = role
            self.request = request
            self.gzip = gzip ? GzipBody() : nil
        }
    }

    let port: UInt16
    let viewerCount: Int
    let deadline: ContinuousClock.Instant
    /// Every this-many-th viewer asks for gzip (0: none).
    let gzipEvery: Int
    /// Inflates every gzip stream's writes, one at a time (the client has one thread).
    private let inflater = BlockInflater()
    private(set) var stats = LoadStatistics()
    private let epollFD = csystem_epoll_create()
    private var sockets: [Int32: Socket] = [:]
    private var viewers: [Viewer] = []
    private var random = SystemRandomNumberGenerator()
    private var openStreams = 0
    private var dials = 0

    init(port: Int, viewers: Int, seconds: Int, gzipEvery: Int = 0) {
        self.port = UInt16(port)
        viewerCount = viewers
        deadline = .now + .seconds(seconds)
        self.gzipEvery = gzipEvery
    }

    func run() {
        var fds = [Int32](repeating: 0, count: 256)
        var events = [UInt32](repeating: 0, count: 256)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var nextTick = ContinuousClock.now
        while ContinuousClock.now < deadline {
            if ContinuousClock.now >= nextTick {  // bookkeeping over all viewers: ten times a second, not per wake
                nextTick = .now + .milliseconds(100)
                rampUp()
                nudgeStalled()
            }
            let count = csystem_epoll_wait(epollFD, &fds, &events, 256, 50)
            for slot in 0..<max(0, Int(count)) {
                guard let socket = sockets[fds[slot]] else { continue }
                handle(fds[slot], socket, events[slot], &buffer)
            }
        }
        for fd in Array(sockets.keys) { forget(fd) }
        close(epollFD)
        stats.inflateFailures = inflater.failures
    }

    private func rampUp() {
        viewers.removeAll { $0.done }
        for _ in 0..<min(200, viewerCount - viewers.count) {
            stats.viewersStarted += 1
            let viewer = Viewer(number: stats.viewersStarted, churnAfter: Int.random(in: 1...4, using: &random),
                                gzip: gzipEvery > 0 && stats.viewersStarted % gzipEvery == 0)
            if viewer.gzip { stats.gzipViewers += 1 }
            viewers.append(viewer)
            openStream(viewer)
        }
    }

    private func openStream(_ viewer: Viewer) {
        var request = "GET /tables/customers/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        if let id = viewer.lastEventID { request += "Last-Event-ID: \(id)\r\n" }
        if viewer.gzip { request += "Accept-Encoding: gzip\r\n" }
        viewer.batchesOnThisConnection = 0
        viewer.lastProgress = .now
        viewer.stream = connect(Socket(role: .stream(viewer), request: Array((request + "\r\n").utf8),
                                       gzip: viewer.gzip))
        stats.connects += 1
    }

    private func post(_ viewer: Viewer) {
        guard let url = viewer.nextURL else { return }
        let request = "POST \(url) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        _ = connect(Socket(role: .post(viewer), request: Array(request.utf8)))
        stats.posts += 1
    }

    /// Starts a non-blocking connect; the request goes out when the socket turns writable.
    private func connect(_ socket: Socket) -> Int32 {
        // Connections rotate over 16 source addresses: the server admits 4,096 per address.
        dials += 1
        let fd = Dialer.connect(port: port, from: Dialer.rotatingAddress(dials, over: 16))
        guard fd >= 0 else {
            stats.connectFailures += 1
            return -1
        }
        sockets[fd] = socket
        _ = csystem_epoll_ctl(epollFD, csystem_EPOLL_CTL_ADD, fd, csystem_EPOLLOUT | csystem_EPOLLIN)
        if case .stream = socket.role { openStreams += 1 }
        stats.peakOpenStreams = max(stats.peakOpenStreams, openStreams)
        return fd
    }

    private func handle(_ fd: Int32, _ socket: Socket, _ events: UInt32, _ buffer: inout [UInt8]) {
        if events & csystem_EPOLLOUT != 0, !socket.request.isEmpty {
            let sent = socket.request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent > 0 { socket.request.removeFirst(sent) }
            if sent < 0, errno != EAGAIN { return lost(fd, socket) }
            if socket.request.isEmpty { _ = csystem_epoll_ctl(epollFD, csystem_EPOLL_CTL_MOD, fd, csystem_EPOLLIN) }
        }
        guard events & (csystem_EPOLLIN | csystem_EPOLLHUP | csystem_EPOLLERR) != 0 else { return }
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer.withUnsafeBytes { bytes in
                let read = UnsafeRawBufferPointer(rebasing: bytes[0..<count])
                if socket.gzip != nil {
                    socket.gzip?.decode(read, with: inflater) { socket.scanner.append($0) }
                } else {
                    socket.scanner.append(read)
                }
            }
            consume(fd, socket)
        } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
            lost(fd, socket)
        }
    }

    private func consume(_ fd: Int32, _ socket: Socket) {
        switch socket.role {
        case .post:
            // The scanner reads the status line with the first `next()` (a POST's answer has no events).
            _ = socket.scanner.next()
            guard let status = socket.scanner.status else { return }
            stats.countPostAnswer(status)
            forget(fd)
        case .stream(let viewer):
            while sockets[fd] === socket, let event = socket.scanner.next() { receive(event, viewer, fd) }
            if sockets[fd] === socket, let status = socket.scanner.status, status != 200 {
                if status == 204, viewer.total != nil {
                    viewer.done = true
                    stats.viewersCompleted += 1
                } else {
                    stats.unexpectedStatuses += 1
                    stats.unexpected[status, default: 0] += 1
                    viewer.done = true
                }
                forget(fd)
            }
        }
    }

    private func receive(_ event: EventScanner.Event, _ viewer: Viewer, _ fd: Int32) {
        if let id = event.id { viewer.lastEventID = id }
        switch event.name {
        case "session":
            viewer.nextURL = Payload.string("next", in: event.data)
            if !viewer.live, Payload.occurrences(of: "\"live\":{", in: event.data) > 0 {
                viewer.live = true
                stats.liveViewers += 1
            }
            let resumesBatches = viewer.total == nil && !viewer.seen.isEmpty
            if viewer.lastEventID != nil, viewer.batchesOnThisConnection == 0, resumesBatches { post(viewer) }
        case "rows":
            stats.batches += 1
            viewer.lastProgress = .now
            for index in Payload.rowIndices(event.data) {
                stats.rows += 1
                if !viewer.seen.insert(index).inserted { stats.duplicateRows += 1 }
            }
            viewer.batchesOnThisConnection += 1
            if viewer.batchesOnThisConnection >= viewer.churnAfter {
                viewer.churnAfter = Int.random(in: 1...4, using: &random)
                forget(fd)
                stats.reconnects += 1
                openStream(viewer)
            } else {
                post(viewer)
            }
        case "complete" where viewer.total != nil:
            // Resuming a finished live table's stream: `session`, `complete` again, and the stream stays open for
            // the list's changes (docs/PROTOCOL.md). A table that is not live must have answered 204 instead.
            if viewer.live { stats.viewersCompleted += 1 } else { stats.unexpectedStatuses += 1 }
            viewer.done = true
            forget(fd)
        case "complete":
            let total = Payload.integer("total", in: event.data) ?? -1
            viewer.total = total
            stats.missingRows += (0..<max(0, total)).count { !viewer.seen.contains($0) }
            forget(fd)
            openStream(viewer)  // resuming a finished stream must answer 204 (a live table's: `complete` again)
        case "error":
            stats.errorEvents += 1
            post(viewer)
        case "reset":
            stats.resets += 1
            viewer.seen.removeAll()
        default:
            guard let change = LiveChange(name: event.name, data: event.data) else { break }
            if change.kind == .fresh { stats.freshEvents += 1 } else { stats.liveChanges += 1 }
            stats.liveChangedRows += change.count
            if !change.isWellFormed || !viewer.live { stats.malformedChanges += 1 }
        }
    }

    /// A viewer whose batch has not come for 5 s asks again (the demand may have met a batch in flight).
    private func nudgeStalled() {
        let now = ContinuousClock.now
        for viewer in viewers where !viewer.done && viewer.stream >= 0 && now - viewer.lastProgress > .seconds(5) {
            viewer.lastProgress = now
            stats.nudges += 1
            post(viewer)
        }
    }

    private func lost(_ fd: Int32, _ socket: Socket) {
        forget(fd)
        guard case .stream(let viewer) = socket.role, !viewer.done else { return }
        stats.unexpectedCloses += 1
        stats.reconnects += 1
        openStream(viewer)
    }

    private func forget(_ fd: Int32) {
        guard let socket = sockets.removeValue(forKey: fd) else { return }
        _ = csystem_epoll_ctl(epollFD, csystem_EPOLL_CTL_DEL, fd, 0)
        close(fd)
        if case .stream(let viewer) = socket.role {
            openStreams -= 1
            if viewer.stream == fd { viewer.stream = -1 }
        }
    }
}
