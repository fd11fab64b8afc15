extension HTTPResponse {
    /// Bodies shorter than this are sent as they are: gzip's 18 bytes of framing would eat the gain.
    static let minimumCompressedBytes = 128

    /// Whether the server gzip-codes this response for a client that takes gzip (``ContentCoding``): a text,
    /// JSON, JavaScript, SVG or event-stream body that may have one (not 204/304), not already coded, not marked
    /// `Cache-Control: no-transform`, without an `ETag` (a strong validator names one representation: a responder
    /// with validators, like ``StaticFiles``, codes its own variants), and not shorter than
    /// ``minimumCompressedBytes``.
    var isCompressible: Bool {
        guard !status.forbidsBody, !headers.contains(HTTPFieldName.contentEncoding),
              !headers.contains(HTTPFieldName.eTag),
              !headers.hasToken("no-transform", in: HTTPFieldName.cacheControl),
              let type = headers[HTTPFieldName.contentType]?.lowercased()
        else { return false }
        if case .bytes(let bytes) = body, bytes.count < Self.minimumCompressedBytes { return false }
        return type.hasPrefix("text/") || type.hasPrefix("application/json")
            || type.hasPrefix("application/javascript") || type.hasPrefix("image/svg+xml")
    }

    /// This response as the server sends it to a client whose accepted coding is `coding`, and the coding used:
    /// gzip (with `Content-Encoding: gzip`, `Vary: Accept-Encoding`, a `.bytes` body coded whole) when the client
    /// takes it and the response ``isCompressible``; otherwise the response unchanged, identity.
    func coded(for coding: ContentCoding) -> (HTTPResponse, ContentCoding) {
        guard coding == .gzip, isCompressible else { return (self, .identity) }
        var coded = self
        coded.headers.add(name: HTTPFieldName.contentEncoding, value: "gzip")
        coded.headers.add(name: HTTPFieldName.vary, value: "Accept-Encoding")
        if case .bytes(let bytes) = body { coded.body = .bytes(GzipStream.encode(bytes)) }
        return (coded, .gzip)
    }
}
