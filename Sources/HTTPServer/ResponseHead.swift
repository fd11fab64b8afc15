/// Serialises a response's status line and header fields. Pure; thread-safe.
enum ResponseHead {
    /// The head bytes, ending with the blank line.
    /// - Parameters:
    ///   - contentLength: set for `.bytes` bodies (replacing any given value); nil for streams.
    ///   - close: adds `Connection: close`; otherwise `keepAliveHeader` adds `Connection: keep-alive` (HTTP/1.0).
    static func encode(
        _ response: HTTPResponse, contentLength: Int?, close: Bool, keepAliveHeader: Bool
    ) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        out.append(contentsOf: "HTTP/1.1 \(response.status.code) ".utf8)
        appendClean(response.status.reason, to: &out)
        out.append(contentsOf: "\r\n".utf8)
        for field in response.headers {
            // The server owns framing headers.
            if HTTPHeaders.sameName(field.name, "Content-Length") || HTTPHeaders.sameName(field.name, "Connection")
                || HTTPHeaders.sameName(field.name, "Transfer-Encoding") { continue }
            // A name must be a token and a value must not hold CR, LF or NUL: otherwise the field is dropped,
            // so no value can split the response.
            guard !field.name.isEmpty, field.name.utf8.allSatisfy(RequestLine.isTokenByte),
                  !field.value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 })
            else { continue }
            out.append(contentsOf: field.name.utf8)
            out.append(contentsOf: ": ".utf8)
            out.append(contentsOf: field.value.utf8)
            out.append(contentsOf: "\r\n".utf8)
        }
        if let contentLength, !response.status.forbidsBody {
            out.append(contentsOf: "Content-Length: \(contentLength)\r\n".utf8)
        }
        if close {
            out.append(contentsOf: "Connection: close\r\n".utf8)
        } else if keepAliveHeader {
            out.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        out.append(contentsOf: "\r\n".utf8)
        return out
    }

    private static func appendClean(_ text: String, to out: inout [UInt8]) {
        out.append(contentsOf: text.utf8.filter { $0 >= 32 && $0 != 127 })
    }
}
