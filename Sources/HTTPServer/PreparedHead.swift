/// A response head serialised once, ahead of time, for a response sent many times (a static file's, per file and
/// encoding): the bytes ``ResponseHead`` writes for it on a keep-alive HTTP/1.1 connection (no `Connection` field),
/// with the status, fields and body length they were made from.
///
/// A connection sends these bytes instead of encoding the head again only while the response still has that
/// status, a body of that length and these very fields: the same storage, not merely equal fields. A response that
/// carries a prepared head holds its fields twice (here and in `headers`), so any change to its `headers` (a
/// wrapper adding `Vary` or `Set-Cookie`) copies them to new storage and the head is encoded afresh.
///
/// Thread-safe: a value type.
struct PreparedHead: Sendable {
    let status: HTTPStatus
    let headers: HTTPHeaders
    let contentLength: Int
    /// The head on the wire, ending with the blank line.
    let bytes: [UInt8]

    init(status: HTTPStatus, headers: HTTPHeaders, contentLength: Int) {
        self.status = status
        self.headers = headers
        self.contentLength = contentLength
        bytes = ResponseHead.encode(HTTPResponse(status: status, headers: headers), contentLength: contentLength,
                                    close: false, keepAliveHeader: false)
    }

    /// The prepared bytes when they are `response`'s head with a `contentLength` body on a keep-alive HTTP/1.1
    /// connection; nil when the response is not the one they were made for.
    func bytes(for response: HTTPResponse, contentLength: Int) -> [UInt8]? {
        guard status == response.status, self.contentLength == contentLength,
              headers.isSameStorage(as: response.headers) else { return nil }
        return bytes
    }
}
