extension UpstreamRequest {
    /// Checks what libcurl would otherwise accept too loosely: the scheme, the method and the headers.
    /// Throws before any byte goes out.
    func validate() throws(UpstreamError) {
        guard let schemeEnd = url.firstIndex(of: ":") else { throw .invalidURL }
        let scheme = url[..<schemeEnd].lowercased()
        // An RFC 3986 scheme is ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter,
              scheme.unicodeScalars.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || "+-.".unicodeScalars.contains($0) })
        else { throw .invalidURL }
        guard scheme == "http" || scheme == "https" else { throw .protocolNotAllowed }
        guard url[schemeEnd...].hasPrefix("://"), url.utf8.count > scheme.utf8.count + 3 else { throw .invalidURL }
        // Control characters and spaces in a URL would be sent raw or rejected late; refuse them now.
        guard !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else { throw .invalidURL }
        guard Self.isToken(method) else { throw .invalidRequest }
        for (name, value) in headers {
            // A CR or LF would let a value inject further headers; a NUL would cut it short.
            guard Self.isToken(name),
                  !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" })
            else { throw .invalidRequest }
        }
    }

    /// Whether `name` can be a header name (an RFC 9110 token).
    public static func isHeaderName(_ name: String) -> Bool { isToken(name) }

    /// RFC 9110 `token`: visible ASCII except delimiters.
    static func isToken(_ s: String) -> Bool {
        !s.isEmpty && s.unicodeScalars.allSatisfy { c in
            c.isASCIILetter || c.isASCIIDigit || "!#$%&'*+-.^_`|~".unicodeScalars.contains(c)
        }
    }
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
