import Foundation

/// Reads HTTP/1.1 requests off one fixture connection, noticing the server stopping.
struct FixtureReader {
    let fd: Int32
    let server: FixtureServer
    private var buffer: [UInt8] = []
    private(set) var peerClosed = false

    init(fd: Int32, server: FixtureServer) {
        self.fd = fd
        self.server = server
    }

    /// The next request, or nil once the peer closed, the server stopped or the request was malformed.
    mutating func readRequest() -> FixtureRequest? {
        let separator = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            headEnd = buffer.firstRange(of: separator)?.lowerBound
            if headEnd == nil, !fill() { return nil }
        }
        let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        buffer.removeFirst(headEnd! + separator.count)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length = Int(headers.last(where: { $0.name == "content-length" })?.value ?? "0") ?? 0
        while buffer.count < length {
            if !fill() { return nil }
        }
        let body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return FixtureRequest(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
    }

    /// Waits (bounded by `limit` and by the server stopping) until the peer closes the connection.
    mutating func waitForPeerClose(limit: Duration) {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline, !peerClosed, !server.isStopped {
            buffer.removeAll()
            _ = fill()
        }
    }

    /// Reads what is available (waiting up to 20 ms); false when the peer closed or the server stopped.
    private mutating func fill() -> Bool {
        while !server.isStopped {
            guard server.waitReadable(fd) else { continue }
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }  // a signal cut it short; or nothing after all
            if count <= 0 {
                peerClosed = true
                return false
            }
            buffer += chunk[..<count]
            return true
        }
        return false
    }
}
