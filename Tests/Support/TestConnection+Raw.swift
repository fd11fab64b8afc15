import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The raw side of `TestConnection`, for tests of the HTTP server itself: reading up to a marker, whole responses
/// (also without Content-Length), seeing the server close, trickling bytes. Blocking reads run off the pool.
extension TestConnection {
    static func bind(_ fd: Int32, to sourceAddress: String) throws {
        var source = sockaddr_in()
        source.sin_family = sa_family_t(AF_INET)
        source.sin_addr.s_addr = inet_addr(sourceAddress)
        let bound = withUnsafePointer(to: &source) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // Not closed here: the connection's deinit closes it once (see `init(port:)`).
        guard bound == 0 else { throw Failure(description: "bind to \(sourceAddress): errno \(errno)") }
    }

    /// Reads until `marker` appears; returns everything up to and including it. Bounded by `timeoutSeconds` in
    /// all, not only per read (heartbeats would keep a stream that never sends the marker going for ever).
    public func read(until marker: String) async throws -> String {
        let needle = Array(marker.utf8)
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        while true {
            if let text = take(through: needle) { return text }
            try checkDeadline(deadline, marker)
            guard try await fill() else { throw Failure(description: "closed before \(marker.debugDescription)") }
        }
    }

    /// `read(until:)` blocking the calling thread: only for tests that run on a thread of their own.
    public func readBlocking(until marker: String) throws -> String {
        let needle = Array(marker.utf8)
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        while true {
            if let text = take(through: needle) { return text }
            try checkDeadline(deadline, marker)
            guard try fillBlocking() else { throw Failure(description: "closed before \(marker.debugDescription)") }
        }
    }

    private func checkDeadline(_ deadline: ContinuousClock.Instant, _ marker: String) throws {
        guard ContinuousClock.now < deadline else {
            throw Failure(description: "no \(marker.debugDescription) within \(timeoutSeconds) s")
        }
    }

    /// The buffered bytes up to and including the first `needle`, removed from the buffer; nil if none yet.
    private func take(through needle: [UInt8]) -> String? {
        guard let end = endOfFirst(needle) else { return nil }
        let text = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeSubrange(..<end)
        return text
    }

    /// Reads one response; `head` for a HEAD request (no body). A body without Content-Length runs to the end.
    public func readResponse(head: Bool = false) async throws -> TestResponse {
        let (status, headers) = try await readHead()
        if head || status == 204 || status == 304 { return TestResponse(status: status, headers: headers, body: "") }
        let body: [UInt8]
        if let length = headers["content-length"].flatMap(Int.init) {
            body = try await readBytes(length)
        } else {
            // To the end of the stream, within `timeoutSeconds` in all (a stream's pings would never time out a read).
            let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
            while try await fill() { try checkDeadline(deadline, "the end of a body without Content-Length") }
            body = buffer
            buffer = []
        }
        return TestResponse(status: status, headers: headers, body: String(decoding: body, as: UTF8.self))
    }

    /// Whether the server closed the connection with nothing more to read; throws on timeout.
    public func isClosedByServer() async throws -> Bool {
        guard buffer.isEmpty else { return false }
        return try await !fill()
    }

    /// `isClosedByServer()` blocking the calling thread: only for tests that run on a thread of their own.
    public func isClosedByServerBlocking() throws -> Bool {
        guard buffer.isEmpty else { return false }
        return try !fillBlocking()
    }

    /// Whether bytes (or the end of the stream) wait to be read, without blocking.
    public func hasInput() -> Bool {
        if !buffer.isEmpty { return true }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// Sends without throwing; false once the peer has closed or reset the connection.
    public func trySend(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    private func endOfFirst(_ needle: [UInt8]) -> Int? {
        guard !needle.isEmpty, buffer.count >= needle.count else { return nil }
        for start in 0...(buffer.count - needle.count) where buffer[start] == needle[0] {
            if buffer[start..<start + needle.count].elementsEqual(needle) { return start + needle.count }
        }
        return nil
    }
}

extension TestConnection {
    /// The bytes buffered, or (when none are) what one read brings; empty once the server closed. Blocking: only
    /// for tests on a thread of their own (a gzip-coded stream read as it arrives).
    public func readAvailableBlocking() throws -> [UInt8] {
        if buffer.isEmpty { _ = try fillBlocking() }
        defer { buffer = [] }
        return buffer
    }
}
