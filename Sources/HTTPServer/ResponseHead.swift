/// Serialises a response's status line and header fields. Pure; thread-safe.
///
/// Written into one array of a bound computed first (``HeadWriter``): each piece is one copy from where its bytes
/// are stored, no string interpolation, no allocation but the array. Fields set as ``EncodedHeaderFields`` were
/// checked and encoded once: their bytes are copied whole.
enum ResponseHead {
    /// The head bytes, ending with the blank line.
    /// - Parameters:
    ///   - contentLength: set for `.bytes` bodies (replacing any given value); nil for streams.
    ///   - close: adds `Connection: close`; otherwise `keepAliveHeader` adds `Connection: keep-alive` (HTTP/1.0).
    static func encode(
        _ response: HTTPResponse, contentLength: Int?, close: Bool, keepAliveHeader: Bool
    ) -> [UInt8] {
        let plain = response.headers.plainFields
        let encoded = response.headers.encoded?.bytes ?? []
        let reason = response.status.reason
        // The status line's fixed parts and code (9 + 19 + 1 + 2), the reason, the fields, and at most 97 bytes of
        // framing (nosniff 33, Content-Length 16 + 19 + 2, Connection 24, the blank line 2).
        var bound = 31 + reason.utf8.count + encoded.count + 97
        for field in plain { bound += HeadWriter.bound(field) }
        return [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            var head = HeadWriter(buffer)
            head.write("HTTP/1.1 ")
            head.write(decimal: response.status.code)
            head.write(" ")
            HeadWriter.withBytes(of: reason) { reason in
                // A reason phrase never carries a control character (it could end the status line).
                for byte in reason where byte >= 32 && byte != 127 { head.write(byte: byte) }
            }
            head.write("\r\n")
            for field in plain { head.write(field) }
            encoded.withUnsafeBufferPointer { head.write($0) }
            // Every response: a browser must never sniff a body as another type than it is declared (a plain-text
            // error carrying upstream text rendered as HTML, a JSON or SSE body run as script).
            head.write("X-Content-Type-Options: nosniff\r\n")
            if let contentLength, !response.status.forbidsBody {
                head.write("Content-Length: ")
                head.write(decimal: contentLength)
                head.write("\r\n")
            }
            if close {
                head.write("Connection: close\r\n")
            } else if keepAliveHeader {
                head.write("Connection: keep-alive\r\n")
            }
            head.write("\r\n")
            count = head.count
        }
    }

    /// Whether a field named `name` with `value` (UTF-8) is written: the server owns the framing headers, and
    /// `X-Content-Type-Options` (written once, by ``encode``); a name must be a token and a value must not hold CR,
    /// LF or NUL, otherwise the field is dropped, so no value can split the response.
    static func writes(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !name.isEmpty, name.allSatisfy(RequestLine.isTokenByte),
              !value.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 })
        else { return false }
        return !isOwned(name)
    }

    /// Whether `name` is one of the fields only the server writes (`Connection`, `Content-Length`,
    /// `Transfer-Encoding`, `X-Content-Type-Options`), ASCII case-insensitively: by length first, so any other name
    /// costs one comparison.
    private static func isOwned(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let owned: StaticString
        switch name.count {
        case 10: owned = "Connection"
        case 14: owned = "Content-Length"
        case 17: owned = "Transfer-Encoding"
        case 22: owned = "X-Content-Type-Options"
        default: return false
        }
        let bytes = UnsafeBufferPointer(start: owned.utf8Start, count: owned.utf8CodeUnitCount)
        return HTTPHeaders.sameName(bytes: name, bytes)
    }
}
