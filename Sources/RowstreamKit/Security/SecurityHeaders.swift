import HTTPServer

/// The headers every response of a ``RowstreamServer`` carries (docs/SECURITY.md, "Response headers"):
/// `Content-Security-Policy` (no inline script or style, nothing loaded from elsewhere but card images, no
/// framing unless configured), `Referrer-Policy: same-origin`; the answers the HTTP server makes without the
/// responder carry them too (``fields``). (`X-Content-Type-Options: nosniff` is the HTTP server's own, on every
/// response.) Thread-safe: an immutable value.
struct SecurityHeaders: Sendable {
    /// The policy's text.
    let contentSecurityPolicy: String
    /// The header fields, built once: as the HTTP server's `ownAnswerHeaders`, on the answers it makes without the
    /// responder (400, 408, 431, 503, 504...).
    let fields: HTTPHeaders
    /// The same fields checked and encoded once, for the responder's answers (``applied(to:)``, every request).
    let encoded: EncodedHeaderFields

    /// - Parameters:
    ///   - frameAncestors: the sources that may frame the pages (`'none'`, `'self'`, `https://intranet.example`).
    ///   - remoteImages: some table shows cards with upstream images (any http(s) URL of its data).
    init(frameAncestors: [String], remoteImages: Bool) {
        let ancestors = frameAncestors.isEmpty ? ["'none'"] : frameAncestors
        contentSecurityPolicy = [
            "default-src 'self'", "script-src 'self'", "style-src 'self'",
            "img-src 'self' data:" + (remoteImages ? " https: http:" : ""),
            "connect-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'",
            "frame-ancestors " + ancestors.joined(separator: " "),
        ].joined(separator: "; ")
        fields = [FieldName.contentSecurityPolicy: contentSecurityPolicy, FieldName.referrerPolicy: "same-origin"]
        encoded = EncodedHeaderFields(fields)
    }

    /// `response` with the headers (replacing any it had), as fields encoded once: no per-response field list is
    /// built or searched by name, and the head copies their bytes whole.
    func applied(to response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers.replaceOrAdd(encoded)
        return response
    }

    /// Whether `source` may stand in `frame-ancestors`: a keyword (`'none'`, `'self'`), a scheme (`https:`) or a
    /// host source (`https://*.example.com:8443`), nothing that could end the directive or the header.
    static func isValidFrameAncestor(_ source: String) -> Bool {
        if source == "'none'" || source == "'self'" { return true }
        return !source.isEmpty && source.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"): true
            case UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "*"),
                 UInt8(ascii: "["), UInt8(ascii: "]"): true
            default: false
            }
        }
    }

    /// The response header names written here.
    enum FieldName {
        static let contentSecurityPolicy = "Content-Security-Policy"
        static let referrerPolicy = "Referrer-Policy"
    }
}
