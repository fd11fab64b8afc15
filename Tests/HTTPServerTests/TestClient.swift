import Foundation

/// A small blocking HTTP test client over a POSIX socket. Every receive has a timeout, so no test hangs.
final class TestClient {
    struct Response {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    let fd: Int32
    private var pending: [UInt8] = []

    /// `sourceAddress` binds the client end to another loopback address (any of 127/8 works on Linux).
    init(port: Int, receiveTimeoutSeconds: Int = 5, receiveBufferBytes: Int32? = nil,
         sourceAddress: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBufferBytes {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let sourceAddress {
            var source = sockaddr_in()
            source.sin_family = sa_family_t(AF_INET)
            source.sin_addr.s_addr = inet_addr(sourceAddress)
            let bound = withUnsafePointer(to: &source) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                close(fd)
                throw Failure(description: "bind to \(sourceAddress) failed: errno \(errno)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw Failure(description: "connect failed: errno \(errno)")
        }
    }

    deinit { close(fd) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(description: "send failed: errno \(errno)") }
            offset += sent
        }
    }

    /// Receives more bytes into `pending`; false on EOF. Throws on timeout/error.
    @discardableResult
    private func receiveMore() throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count == 0 { return false }
        guard count > 0 else { throw Failure(description: "recv failed or timed out: errno \(errno)") }
        pending.append(contentsOf: buffer[0..<count])
        return true
    }

    /// Reads until `marker` appears; returns everything up to and including it.
    func read(until marker: String) throws -> String {
        let needle = Array(marker.utf8)
        while true {
            if let range = firstRange(of: needle) {
                let out = Array(pending[..<range])
                pending.removeFirst(range)
                return String(decoding: out, as: UTF8.self)
            }
            guard try receiveMore() else { throw Failure(description: "closed before \(marker.debugDescription)") }
        }
    }

    /// Reads one response; `head` for HEAD requests (no body). A body without Content-Length runs to EOF.
    func readResponse(head: Bool = false) throws -> Response {
        let headText = try read(until: "\r\n\r\n")
        var lines = headText.components(separatedBy: "\r\n").dropLast(2)
        guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1.1 "),
              let status = Int(statusLine.dropFirst(9).prefix(3))
        else { throw Failure(description: "bad status line") }
        lines = lines.dropFirst()
        let headers = lines.map { line -> (String, String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1].drop { $0 == " " }) : "")
        }
        var response = Response(status: status, headers: headers, body: [])
        if head || status == 304 || status == 204 { return response }
        if let length = response.header("Content-Length").flatMap(Int.init) {
            while pending.count < length {
                guard try receiveMore() else { throw Failure(description: "closed inside body") }
            }
            response.body = Array(pending[..<length])
            pending.removeFirst(length)
        } else {
            while try receiveMore() {}
            response.body = pending
            pending = []
        }
        return response
    }

    /// Whether the server closed the connection (EOF) with no more data; throws on timeout.
    func isClosedByServer() throws -> Bool {
        if !pending.isEmpty { return false }
        return try !receiveMore()
    }

    /// Whether bytes (or EOF) are waiting to be read, without blocking.
    func hasInput() -> Bool {
        if !pending.isEmpty { return true }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// Sends without throwing; false once the peer has closed or reset the connection.
    func trySend(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    private func firstRange(of needle: [UInt8]) -> Int? {
        guard pending.count >= needle.count else { return nil }
        for start in 0...(pending.count - needle.count) where pending[start] == needle[0] {
            if Array(pending[start..<start + needle.count]) == needle { return start + needle.count }
        }
        return nil
    }
}
