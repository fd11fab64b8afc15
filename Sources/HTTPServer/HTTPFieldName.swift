/// The header field names the server and the library read or write, as named constants (in the manner of
/// swift-http-types' `HTTPField.Name`): `headers[HTTPFieldName.contentType]`, `[HTTPFieldName.allow: "GET"]`.
/// Spelled as RFC 9110 and the specs naming them do; lookups are case-insensitive (``HTTPHeaders``).
public enum HTTPFieldName {
    /// RFC 9110 §12.5.1.
    public static let accept = "Accept"
    /// RFC 9110 §12.5.3: the content codings a client takes (``ContentCoding``).
    public static let acceptEncoding = "Accept-Encoding"
    /// RFC 9110 §10.2.1.
    public static let allow = "Allow"
    /// RFC 9110 §11.6.2: `Bearer TOKEN` (RFC 6750) for the access layer.
    public static let authorization = "Authorization"
    /// RFC 9111 §5.2.
    public static let cacheControl = "Cache-Control"
    /// RFC 9110 §7.6.1.
    public static let connection = "Connection"
    /// RFC 6265 §5.4: the cookies a browser sends.
    public static let cookie = "Cookie"
    /// RFC 6266: a download's file name (`attachment; filename="..."`).
    public static let contentDisposition = "Content-Disposition"
    /// RFC 9110 §8.6.
    public static let contentLength = "Content-Length"
    /// RFC 9110 §8.3.
    public static let contentType = "Content-Type"
    /// RFC 9110 §8.4.
    public static let contentEncoding = "Content-Encoding"
    /// RFC 9110 §8.8.3.
    public static let eTag = "ETag"
    /// RFC 9110 §7.2.
    public static let host = "Host"
    /// RFC 9110 §13.1.2.
    public static let ifNoneMatch = "If-None-Match"
    /// The WHATWG HTML standard's server-sent events: the last event id a reconnecting client saw.
    public static let lastEventID = "Last-Event-ID"
    /// RFC 9110 §10.2.2: where a `303` sends the browser.
    public static let location = "Location"
    /// RFC 9110 §10.2.3.
    public static let retryAfter = "Retry-After"
    /// RFC 6265 §4.1: a cookie the server sets.
    public static let setCookie = "Set-Cookie"
    /// RFC 9112 §6.1.
    public static let transferEncoding = "Transfer-Encoding"
    /// RFC 9110 §12.5.5.
    public static let vary = "Vary"
    /// RFC 9110 §11.6.1: the challenge of a `401`.
    public static let wwwAuthenticate = "WWW-Authenticate"
    /// De-facto standard: the addresses a request passed through, the client's first; the last was appended by the
    /// proxy that connected to us. Believed from a trusted proxy only.
    public static let xForwardedFor = "X-Forwarded-For"
    /// De-facto standard: the scheme a reverse proxy's client used (`https`), believed from a trusted proxy only.
    public static let xForwardedProto = "X-Forwarded-Proto"
    /// nginx: `no` turns off its response buffering (an event stream must reach the viewer at once).
    public static let xAccelBuffering = "X-Accel-Buffering"
    /// The Fetch standard: `nosniff` stops browsers guessing a content type.
    public static let xContentTypeOptions = "X-Content-Type-Options"
}
