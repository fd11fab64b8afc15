import Dispatch
import Foundation
import Glibc
import Locking

/// The fixture upstream every test uses: a tiny blocking HTTP/1.1 server on 127.0.0.1, port 0, one thread per
/// connection, keep-alive, a backlog of 128. It counts requests and how many are in flight, and a reply can be
/// `.held` until the test releases it (`ReplyGate`), so tests of coalescing, caps and faults never race a clock.
/// Every wait inside it is bounded and notices `stop()`. It logs every request it reads (`requests`: method,
/// target, headers, body, number and arrival time), and its handler may answer by request number.
///
/// Thread-safe. Call `stop()` at the end of each test; it returns once every thread has exited.
public final class FixtureServer: Sendable {
    private struct State {
        var stopped = false
        var requests: [FixtureRequest] = []
        var connectionsAccepted = 0
        var connectionsClosedByPeer = 0
        var inFlight = 0
        var maxInFlight = 0
    }

    public let port: UInt16
    private let listener: Int32
    private let handler: @Sendable (FixtureRequest) -> FixtureReply
    private let state = Lock(State())
    private let threads = DispatchGroup()

    public init(handler: @escaping @Sendable (FixtureRequest) -> FixtureReply) throws {
        self.handler = handler
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw FixtureError.socket("socket", errno) }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 128) == 0 else {
            close(listener)
            throw FixtureError.socket("bind/listen", errno)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        threads.enter()
        Thread { [self] in acceptLoop() }.start()
    }

    /// `http://127.0.0.1:<port>`
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    public var requests: [FixtureRequest] { state.withLock { $0.requests } }
    public var connectionsAccepted: Int { state.withLock { $0.connectionsAccepted } }
    public var connectionsClosedByPeer: Int { state.withLock { $0.connectionsClosedByPeer } }
    public var maxInFlight: Int { state.withLock { $0.maxInFlight } }
    public var isStopped: Bool { state.withLock { $0.stopped } }

    /// Stops accepting, ends every connection thread and waits (bounded) for them all.
    public func stop() {
        state.withLock { $0.stopped = true }
        _ = threads.wait(timeout: .now() + 20)
    }

    // MARK: Threads

    private func acceptLoop() {
        defer { close(listener); threads.leave() }
        while !isStopped {
            guard waitReadable(listener) else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            state.withLock { $0.connectionsAccepted += 1 }
            threads.enter()
            Thread { [self] in
                serve(connection)
                close(connection)
                threads.leave()
            }.start()
        }
    }

    /// Polls `fd` for input for up to 20 ms.
    func waitReadable(_ fd: Int32) -> Bool {
        var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&pollFD, 1, 20) > 0
    }

    private func serve(_ connection: Int32) {
        var reader = FixtureReader(fd: connection, server: self)
        while var request = reader.readRequest() {
            state.withLock {
                request.number = $0.requests.count + 1
                request.arrived = Date()
                $0.requests.append(request)
                $0.inFlight += 1
                $0.maxInFlight = max($0.maxInFlight, $0.inFlight)
            }
            let keepOpen = reply(handler(request), on: connection, reader: &reader)
            state.withLock { $0.inFlight -= 1 }
            guard keepOpen else { return }
        }
        if reader.peerClosed { state.withLock { $0.connectionsClosedByPeer += 1 } }
    }

    /// Sends `reply`; returns whether the connection may serve another request.
    private func reply(_ reply: FixtureReply, on connection: Int32, reader: inout FixtureReader) -> Bool {
        switch reply {
        case .respond(let status, let headers, let body):
            let head = Self.head(status: status, headers: headers + [("Content-Length", "\(body.count)")])
            return send(connection, head + body)
        case .slow(let delay, let next):
            let deadline = ContinuousClock.now + delay
            while ContinuousClock.now < deadline, !isStopped { usleep(5_000) }
            return isStopped ? false : self.reply(next, on: connection, reader: &reader)
        case .held(let gate, let next):
            return gate.waitForRelease(unless: { isStopped }) ? self.reply(next, on: connection, reader: &reader) : false
        case .raw(let bytes):
            _ = send(connection, bytes)
            return false
        case .reset:
            var linger = linger(l_onoff: 1, l_linger: 0)
            setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
            return false
        case .hang:
            reader.waitForPeerClose(limit: .seconds(60))
            if reader.peerClosed { state.withLock { $0.connectionsClosedByPeer += 1 } }
            return false
        case .closeMidBody(let declared, let sent):
            let head = Self.head(status: 200, headers: [("Content-Length", "\(declared)")])
            _ = send(connection, head + [UInt8](repeating: UInt8(ascii: "x"), count: sent))
            return false
        case .chunked(let chunkBytes, let chunks):
            guard send(connection, Self.head(status: 200, headers: [("Transfer-Encoding", "chunked")])) else { return false }
            let chunk = Array(String(chunkBytes, radix: 16).utf8) + Array("\r\n".utf8)
                + [UInt8](repeating: UInt8(ascii: "y"), count: chunkBytes) + Array("\r\n".utf8)
            for _ in 0..<chunks where !isStopped {
                guard send(connection, chunk) else { return false }
            }
            return send(connection, Array("0\r\n\r\n".utf8))
        case .redirect(let location, let headers):
            let head = Self.head(status: 302, headers: headers + [("Location", location), ("Content-Length", "0")])
            return send(connection, head)
        }
    }

    private static func head(status: Int, headers: [(name: String, value: String)]) -> [UInt8] {
        var text = "HTTP/1.1 \(status) Fixture\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    private func send(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0, errno == EINTR { continue }   // a send with a timeout is not restarted after a signal
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}

public enum FixtureError: Error {
    case socket(String, Int32)
}
