import Glibc

/// A strict HTTP/1.x request parser ([RFC 9112](https://www.rfc-editor.org/rfc/rfc9112)): a pure value over
/// bytes, with no I/O. Append bytes as they arrive; call `next()` until it returns nil (needs more bytes).
///
/// Accepted: `METHOD SP origin-form SP HTTP/1.0|HTTP/1.1 CRLF` (or `OPTIONS *`), header fields, and a
/// `Content-Length` body. Leading empty lines (CRLF) before a request line are skipped (RFC 9112 §2.2).
/// Refused (after an error the parser is spent; answer the status and close):
/// - request line over the limit -> 414; header section bytes or count over the limit -> 431;
/// - `Content-Length` over the body limit -> 413; `Transfer-Encoding` -> 501 (chunked requests unsupported);
/// - both `Content-Length` and `Transfer-Encoding`, differing or malformed `Content-Length`, bad method token,
///   bad target, version other than 1.0/1.1, bare LF, NUL or other control bytes, obs-fold, a field name with
///   whitespace, HTTP/1.1 without exactly one `Host` -> 400.
///
/// Thread rules: a value type; confine each instance to one thread (its connection's loop).
public struct HTTPRequestParser: Sendable {
    public let limits: HTTPParserLimits
    private var buffer: [UInt8] = []
    private var start = 0
    private var failed: HTTPParseError?
    /// How far the request at `start` has been read, kept between calls so that a head arriving in many small
    /// reads is scanned once in all (rescanning it on every read cost O(n²): 37-100 ms of CPU for a 24 KB head
    /// sent one byte per `send()`). Indices are absolute in `buffer`; reset with each request.
    private var progress = Progress()
    /// Bytes examined while looking for line ends, in total (package-visible, for tests: a head fed byte by byte
    /// must cost O(n)).
    private(set) var scannedByteCount = 0

    private struct Progress {
        /// The request line, once complete, and the index after its CRLF (where the header fields begin).
        var head: RequestLine?
        var headStart = 0
        /// The fields read so far, the start of the line being read, and how far that line was scanned
        /// (no LF and no NUL before `scanned`).
        var headers = HTTPHeaders()
        var lineStart = 0
        var scanned = 0
        /// Where the body begins, once the head is complete.
        var bodyStart: Int?
    }

    public init(limits: HTTPParserLimits = HTTPParserLimits()) {
        self.limits = limits
    }

    /// Bytes received but not yet returned as part of a request.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Bytes held, consumed ones not yet dropped included (package-visible, for tests).
    var storedByteCount: Int { buffer.count }

    /// Appends received bytes.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete request, nil if more bytes are needed; throws when the input is refused.
    public mutating func next() throws(HTTPParseError) -> HTTPRequest? {
        if let failed { throw failed }
        do {
            guard let (request, end) = try parse() else { return nil }
            consume(upTo: end)
            return request
        } catch {
            failed = error
            throw error
        }
    }

    private mutating func consume(upTo end: Int) {
        start = end
        compact()
    }

    /// Drops consumed bytes from the front of `buffer` (indices shift: only between requests).
    private mutating func compact() {
        if start == buffer.count {
            // Nothing buffered: hold no storage (an SSE stream's connection keeps its parser for hours).
            buffer = []
            start = 0
        } else if start > 16 * 1024, start > buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        progress = Progress(lineStart: start, scanned: start)
    }

    private static let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")

    /// Finds the end of the line at `progress.lineStart`, scanning on from `progress.scanned`; returns the end of
    /// its content (before CRLF) and the index after LF, or nil (more bytes needed; `progress.scanned` advanced).
    private mutating func line(maxContent: Int, overflow: HTTPParseError) throws(HTTPParseError) -> (Int, Int)? {
        let from = progress.lineStart
        let scanEnd = min(buffer.count, from + maxContent + 2)
        var index = max(from, progress.scanned)
        defer {
            scannedByteCount += max(0, index - max(from, progress.scanned))
            progress.scanned = index
        }
        // The LF, and any NUL before it, found with `memchr` (a loop over the array checked each byte's bounds).
        let (lineFeed, nul) = buffer.withUnsafeBufferPointer { bytes -> (Int?, Bool) in
            guard index < scanEnd, let base = bytes.baseAddress else { return (nil, false) }
            let found = memchr(base + index, Int32(Self.lf), scanEnd - index)
                .map { UnsafeRawPointer(base).distance(to: $0) }
            return (found, memchr(base + index, 0, (found ?? scanEnd) - index) != nil)
        }
        if nul { throw HTTPParseError(.badRequest, "NUL byte in request head.") }
        guard let lineFeed else {
            index = max(index, scanEnd)
            if buffer.count - from > maxContent + 1 { throw overflow }
            return nil
        }
        index = lineFeed
        guard index > from, buffer[index - 1] == Self.cr else {
            throw HTTPParseError(.badRequest, "Line ends with a bare LF.")
        }
        guard index - 1 - from <= maxContent else { throw overflow }
        return (index - 1, index + 1)
    }

    private mutating func parse() throws(HTTPParseError) -> (HTTPRequest, Int)? {
        if progress.head == nil {
            // Skip empty lines before a request line (RFC 9112 §2.2); bare LF is still refused below. Skipped
            // bytes are dropped at once, so a stream of CRLFs holds no memory.
            let skipFrom = start
            while buffer.count - start >= 2, buffer[start] == Self.cr, buffer[start + 1] == Self.lf { start += 2 }
            if start != skipFrom { compact() }
            if start < buffer.count, buffer[start] == Self.lf {
                throw HTTPParseError(.badRequest, "Line ends with a bare LF.")
            }
            let tooLong = HTTPParseError(.uriTooLong, "Request line too long.")
            guard let (lineEnd, headStart) = try line(maxContent: limits.maxRequestLineBytes, overflow: tooLong)
            else { return nil }
            progress.head = try RequestLine(buffer[start..<lineEnd])
            progress.headStart = headStart
            progress.lineStart = headStart
            progress.scanned = headStart
        }
        guard var head = progress.head else { return nil }
        if progress.bodyStart == nil {
            let headStart = progress.headStart
            let tooLarge = HTTPParseError(.headerFieldsTooLarge, "Request header fields too large.")
            while true {
                let position = progress.lineStart
                let remaining = limits.maxHeaderBytes - (position - headStart)
                guard remaining >= 2 else { throw tooLarge }
                guard let (end, next) = try line(maxContent: remaining - 2, overflow: tooLarge) else { return nil }
                progress.lineStart = next
                progress.scanned = next
                if end == position { break }
                guard progress.headers.count < limits.maxHeaderCount else { throw tooLarge }
                let field = try Self.headerField(buffer[position..<end])
                // A browser's request has about a dozen fields.
                if progress.headers.count == 0 { progress.headers.reserveCapacity(12) }
                progress.headers.add(name: field.name, value: field.value)
            }
            progress.bodyStart = progress.lineStart
        }
        guard let position = progress.bodyStart else { return nil }
        let headers = progress.headers
        head.headers = headers
        let length = try bodyLength(headers, version: head.version)
        guard buffer.count - position >= length else { return nil }
        let body = Array(buffer[position..<position + length])
        let request = HTTPRequest(method: head.method, target: head.target, path: head.path, query: head.query,
                                  version: head.version, headers: headers, body: body)
        return (request, position + length)
    }

    /// The body's length from the head's fields, which are read once (`Host`, `Content-Length`, `Transfer-Encoding`
    /// found by length first: any other name costs one comparison).
    private func bodyLength(_ headers: HTTPHeaders, version: HTTPVersion) throws(HTTPParseError) -> Int {
        var hosts = 0
        var transferEncoding = false
        var length: String?
        var lengthsDiffer = false
        for field in headers {
            switch field.name.utf8.count {
            case 4 where HTTPHeaders.sameName(field.name, HTTPFieldName.host):
                hosts += 1
            case 14 where HTTPHeaders.sameName(field.name, HTTPFieldName.contentLength):
                if let length { lengthsDiffer = lengthsDiffer || length != field.value } else { length = field.value }
            case 17 where HTTPHeaders.sameName(field.name, HTTPFieldName.transferEncoding):
                transferEncoding = true
            default:
                break
            }
        }
        if version == .http1_1, hosts != 1 {
            throw HTTPParseError(.badRequest, "HTTP/1.1 requires exactly one Host header.")
        }
        if transferEncoding {
            // Both framings at once is a request-smuggling vector (RFC 9112 §6.1).
            if length != nil { throw HTTPParseError(.badRequest, "Both Content-Length and Transfer-Encoding.") }
            throw HTTPParseError(.notImplemented, "Transfer-Encoding is not supported on requests.")
        }
        guard let length else { return 0 }
        guard !lengthsDiffer, !length.isEmpty, length.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 })
        else { throw HTTPParseError(.badRequest, "Invalid Content-Length.") }
        guard length.utf8.count <= 15, let value = Int(length), value <= limits.maxBodyBytes else {
            throw HTTPParseError(.payloadTooLarge, "Request body too large.")
        }
        return value
    }

    private static func headerField(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> (name: String, value: String) {
        try line.withUnsafeBufferPointer { (line) throws(HTTPParseError) in try headerField(in: line) }
    }

    /// ``headerField(_:)`` over the line's bytes in place (a slice's indexing checked each byte's bounds).
    private static func headerField(in line: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) -> (name: String, value: String) {
        // A line starting with whitespace continues the previous one: obs-fold, refused (RFC 9112 §5.2).
        if line.first == UInt8(ascii: " ") || line.first == UInt8(ascii: "\t") {
            throw HTTPParseError(.badRequest, "Obsolete line folding.")
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0,
              line[..<colon].allSatisfy(RequestLine.isTokenByte)
        else { throw HTTPParseError(.badRequest, "Malformed header field.") }
        var start = colon + 1
        var end = line.count
        while start < end, line[start] == 32 || line[start] == 9 { start += 1 }
        while end > start, line[end - 1] == 32 || line[end - 1] == 9 { end -= 1 }
        let value = UnsafeBufferPointer(rebasing: line[start..<end])
        // field-value = VCHAR, SP, HTAB, obs-text; every other control byte is refused.
        guard value.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else {
            throw HTTPParseError(.badRequest, "Control character in header value.")
        }
        return (String(decoding: UnsafeBufferPointer(rebasing: line[..<colon]), as: UTF8.self),
                String(decoding: value, as: UTF8.self))
    }
}
