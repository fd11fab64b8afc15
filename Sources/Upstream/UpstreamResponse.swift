/// An upstream's answer, whatever its status (non-2xx answers are returned, not thrown).
///
/// A plain value: thread-safe to copy and send anywhere.
public struct UpstreamResponse: Sendable {
    /// HTTP status code of the last response (after redirects).
    public var status: Int
    /// Headers of the last response only (after redirects), in arrival order; names lower-cased.
    public var headers: [(name: String, value: String)]
    /// The body, decoded if the upstream compressed it.
    public var body: [UInt8]
    /// The URL finally fetched, after redirects.
    public var effectiveURL: String
    /// For a 3xx answer to a request with `followRedirects == false`: the absolute URL the redirect points
    /// at (libcurl resolves a relative `Location`); nil otherwise.
    public var redirectURL: String? = nil

    /// Creates a response; the client builds these, tests and fakes may too.
    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8], effectiveURL: String) {
        self.status = status
        self.headers = headers
        self.body = body
        self.effectiveURL = effectiveURL
    }

    /// The value of the last header called `name` (compared case-insensitively), if any.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.last(where: { $0.name == wanted })?.value
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
