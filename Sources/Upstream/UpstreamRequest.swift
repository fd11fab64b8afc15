/// One HTTP request to an upstream API.
///
/// A plain value: thread-safe to copy and send anywhere.
public struct UpstreamRequest: Sendable {
    /// Absolute `http` or `https` URL. Other schemes are refused with ``UpstreamError/protocolNotAllowed``.
    public var url: String
    /// HTTP method, e.g. `GET`, `POST`, `PUT`, `DELETE`, `HEAD`.
    public var method: String = "GET"
    /// Extra request headers, sent in this order. Names and values must not contain CR, LF or NUL.
    public var headers: [(name: String, value: String)] = []
    /// Request body; `nil` sends none.
    public var body: [UInt8]? = nil
    /// Limit for the whole transfer, counted from the moment it starts (not while it waits for a slot).
    /// The connect phase is further limited by ``UpstreamClientConfiguration/connectTimeout``.
    public var timeout: Duration = .seconds(15)
    /// Whether libcurl follows redirects itself (any http/https host, up to the client's limit). `PageSource`
    /// turns this off and follows them itself, only within the configured upstream origin.
    public var followRedirects = true

    /// A `GET` of `url` with no extra headers.
    public init(url: String) {
        self.url = url
    }
}
