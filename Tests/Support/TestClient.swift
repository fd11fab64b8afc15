import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs blocking work on a thread of its own and awaits it, so a test waiting on a socket never occupies one of
/// Swift's cooperative threads (2 on this machine) that the server under test needs for its own tasks.
public func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try work() })
        }
        thread.start()
    }
}

/// A deliberately plain HTTP/1.1 client over a blocking POSIX socket, for live tests: it sees exactly the bytes
/// the server sends. Every read has a timeout (30 s unless told: generous, for a sanitized run on a busy machine),
/// so no test can hang. Blocking calls run off the cooperative pool
/// (`offPool`). Confined to the test that made it.
public final class TestConnection: @unchecked Sendable {
    /// The socket, for tests that set options on it (`SO_LINGER`...). Closed by `closeNow()` or deinit.
    public let fd: Int32
    /// The bound on each read, in seconds; `readEvent` also bounds a whole event by it (heartbeats keep every read
    /// short, so only a deadline can end a wait for an event that never comes).
    public let timeoutSeconds: Int
    /// Bytes received and not yet read (internal: `TestConnection+Raw.swift` reads them too).
    var buffer: [UInt8] = []
    public private(set) var isClosed = false
    /// Set by `decodeChunkedBody()`.
    private var chunked: ChunkedDecoder?

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// Connects to 127.0.0.1:`port`. `receiveBufferBytes` shrinks the socket's receive buffer (slow consumers);
    /// `sourceAddress` binds the client end to another loopback address (any of 127/8 works on Linux).
    public init(port: Int, timeoutSeconds: Int = 30, receiveBufferBytes: Int32? = nil,
                sourceAddress: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.timeoutSeconds = timeoutSeconds * TestTime.scale
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var timeout = timeval(tv_sec: self.timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBufferBytes {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let sourceAddress { try Self.bind(fd, to: sourceAddress) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // Not closed here: every stored property is set, so the object's deinit runs when init throws and closes
        // the socket. Closing it here as well closed it twice: the second close hit whatever socket another test
        // had opened with the same number meanwhile (seen as EBADF and lost bytes in unrelated tests).
        guard result == 0 else { throw Failure(description: "connect: errno \(errno)") }
    }

    deinit { closeNow() }

    public func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw Failure(description: "send: errno \(errno)") }
            sent += n
        }
    }

    /// Closes the socket at once (a forced disconnect, as a network blip would).
    public func closeNow() {
        guard !isClosed else { return }
        isClosed = true
        close(fd)
    }

    /// Reads more bytes; false at end of stream (or of a chunked body). Throws on timeout.
    func fill() async throws -> Bool {
        if chunked?.isFinished == true { return false }
        let fd = fd
        let chunk: [UInt8]? = try await offPool { try Self.receiveChunk(fd) }
        guard let chunk else { return false }
        take(chunk)
        return true
    }

    /// `fill()` blocking the calling thread: only for tests that run on a thread of their own.
    func fillBlocking() throws -> Bool {
        if chunked?.isFinished == true { return false }
        guard let chunk = try Self.receiveChunk(fd) else { return false }
        take(chunk)
        return true
    }

    /// From here on the bytes are a `Transfer-Encoding: chunked` body (call right after reading the head): the
    /// reads return the decoded body and end with its last chunk, as a browser reads them.
    public func decodeChunkedBody() {
        var decoder = ChunkedDecoder()
        buffer = decoder.feed(buffer)
        chunked = decoder
    }

    private func take(_ bytes: [UInt8]) {
        if var decoder = chunked {
            buffer.append(contentsOf: decoder.feed(bytes))
            chunked = decoder
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    /// One blocking `recv` of up to 16 KiB; nil at the end of the stream. A signal that interrupts it (EINTR: a
    /// `recv` with a timeout is never restarted, e.g. a child's SIGCHLD, or a debugger attaching) reads again.
    private static func receiveChunk(_ fd: Int32) throws -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        var n = -1
        repeat {
            n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        } while n < 0 && errno == EINTR
        if n == 0 { return nil }
        guard n > 0 else { throw Failure(description: "recv: errno \(errno) (timeout?)") }
        return Array(chunk[0..<n])
    }

    /// Reads one line ending in CRLF or LF, without the terminator; nil at end of stream.
    public func readLine() async throws -> String? {
        while true {
            if let line = takeLine() { return line }
            guard try await fill() else { return nil }
        }
    }

    /// `readLine()` blocking the calling thread: only for tests that run on a thread of their own.
    public func readLineBlocking() throws -> String? {
        while true {
            if let line = takeLine() { return line }
            guard try fillBlocking() else { return nil }
        }
    }

    /// The first buffered line (CRLF or LF, without it), removed from the buffer; nil if none is complete yet.
    private func takeLine() -> String? {
        guard let newline = buffer.firstIndex(of: 10) else { return nil }
        var line = Array(buffer[..<newline])
        buffer.removeSubrange(...newline)
        if line.last == 13 { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
    }

    public func readBytes(_ count: Int) async throws -> [UInt8] {
        while buffer.count < count {
            guard try await fill() else { throw Failure(description: "end of stream inside a body") }
        }
        return takeBytes(count)
    }

    /// `readBytes(_:)` blocking the calling thread: only for tests that run on a thread of their own.
    public func readBytesBlocking(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fillBlocking() else { throw Failure(description: "end of stream inside a body") }
        }
        return takeBytes(count)
    }

    private func takeBytes(_ count: Int) -> [UInt8] {
        let bytes = Array(buffer[..<count])
        buffer.removeSubrange(..<count)
        return bytes
    }

    /// Reads a response head: status code and headers (names lower-cased).
    public func readHead() async throws -> (status: Int, headers: [String: String]) {
        let status = try Self.status(in: try await readLine())
        var headers: [String: String] = [:]
        while let line = try await readLine(), !line.isEmpty { Self.add(header: line, to: &headers) }
        return (status, headers)
    }

    /// `readHead()` blocking the calling thread: only for tests that run on a thread of their own.
    public func readHeadBlocking() throws -> (status: Int, headers: [String: String]) {
        let status = try Self.status(in: try readLineBlocking())
        var headers: [String: String] = [:]
        while let line = try readLineBlocking(), !line.isEmpty { Self.add(header: line, to: &headers) }
        return (status, headers)
    }

    private static func status(in statusLine: String?) throws -> Int {
        guard let statusLine else { throw Failure(description: "no response") }
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure(description: "bad status line \(statusLine)") }
        return status
    }

    private static func add(header line: String, to headers: inout [String: String]) {
        guard let colon = line.firstIndex(of: ":") else { return }
        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }

    /// Sends a request and reads a whole Content-Length response.
    public func exchange(_ method: String, _ path: String, headers: [String: String] = [:], body: String = "")
        async throws -> TestResponse
    {
        try send(Self.request(method, path, headers: headers, body: body))
        let head = try await readHead()
        let bytes = method == "HEAD" ? [] : try await readBytes(Self.contentLength(head.headers))
        return TestResponse(status: head.status, headers: head.headers, body: String(decoding: bytes, as: UTF8.self))
    }

    /// `exchange` blocking the calling thread: only for tests that run on a thread of their own.
    public func exchangeBlocking(_ method: String, _ path: String, headers: [String: String] = [:], body: String = "")
        throws -> TestResponse
    {
        try send(Self.request(method, path, headers: headers, body: body))
        let head = try readHeadBlocking()
        let bytes = method == "HEAD" ? [] : try readBytesBlocking(Self.contentLength(head.headers))
        return TestResponse(status: head.status, headers: head.headers, body: String(decoding: bytes, as: UTF8.self))
    }

    private static func request(_ method: String, _ path: String, headers: [String: String], body: String) -> String {
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { request += "Content-Length: \(body.utf8.count)\r\n" }
        return request + "\r\n" + body
    }

    private static func contentLength(_ headers: [String: String]) -> Int {
        Int(headers["content-length"] ?? "0") ?? 0
    }
}

public struct TestResponse: Sendable {
    public let status: Int
    public let headers: [String: String]
    public let body: String

    public init(status: Int, headers: [String: String], body: String) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// One request on a fresh connection.
public func fetch(_ port: Int, _ method: String, _ path: String, headers: [String: String] = [:]) async throws -> TestResponse {
    let connection = try TestConnection(port: port)
    defer { connection.closeNow() }
    return try await connection.exchange(method, path, headers: headers)
}
