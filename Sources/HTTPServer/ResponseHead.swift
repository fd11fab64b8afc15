/// Serialises a response's status line and header fields. Pure; thread-safe.
///
/// Written byte by byte into one array sized up front: no string interpolation and no allocation per field.
enum ResponseHead {
    /// The head bytes, ending with the blank line.
    /// - Parameters:
    ///   - contentLength: set for `.bytes` bodies (replacing any given value); nil for streams.
    ///   - close: adds `Connection: close`; otherwise `keepAliveHeader` adds `Connection: keep-alive` (HTTP/1.0).
    static func encode(
        _ response: HTTPResponse, contentLength: Int?, close: Bool, keepAliveHeader: Bool
    ) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(estimatedSize(response))
        out.append(contentsOf: "HTTP/1.1 ".utf8)
        appendDecimal(response.status.code, to: &out)
        out.append(UInt8(ascii: " "))
        out.append(contentsOf: response.status.reason.utf8.lazy.filter { $0 >= 32 && $0 != 127 })
        out.append(contentsOf: "\r\n".utf8)
        for field in response.headers {
            // The server owns framing headers, and `X-Content-Type-Options` (written once, below).
            if HTTPHeaders.sameName(field.name, HTTPFieldName.contentLength)
                || HTTPHeaders.sameName(field.name, HTTPFieldName.connection)
                || HTTPHeaders.sameName(field.name, HTTPFieldName.transferEncoding)
                || HTTPHeaders.sameName(field.name, HTTPFieldName.xContentTypeOptions) { continue }
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
        // Every response: a browser must never sniff a body as another type than it is declared (a plain-text
        // error carrying upstream text rendered as HTML, a JSON or SSE body run as script).
        out.append(contentsOf: "X-Content-Type-Options: nosniff\r\n".utf8)
        if let contentLength, !response.status.forbidsBody {
            out.append(contentsOf: "Content-Length: ".utf8)
            appendDecimal(contentLength, to: &out)
            out.append(contentsOf: "\r\n".utf8)
        }
        if close {
            out.append(contentsOf: "Connection: close\r\n".utf8)
        } else if keepAliveHeader {
            out.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        out.append(contentsOf: "\r\n".utf8)
        return out
    }

    /// Room for the status line, the fields and the framing headers, so the array grows once.
    private static func estimatedSize(_ response: HTTPResponse) -> Int {
        var size = 128 + response.status.reason.utf8.count
        for field in response.headers { size += field.name.utf8.count + field.value.utf8.count + 4 }
        return size
    }

    /// The decimal digits of a non-negative `value` (a status code, a length).
    private static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        guard value >= 10 else { return out.append(UInt8(truncatingIfNeeded: max(0, value)) + 0x30) }
        appendDecimal(value / 10, to: &out)
        out.append(UInt8(truncatingIfNeeded: value % 10) + 0x30)
    }
}
