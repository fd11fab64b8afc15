import JSON

/// How to ask the upstream for one page: the base URL and headers every page request shares.
///
/// A plain value: thread-safe. Headers, query and body may carry secrets (API tokens); they are sent
/// upstream and never appear in an ``UpstreamError``'s description.
public struct PageRequestTemplate: Sendable {
    /// Base URL; may already have a query (parameters this template sets are replaced, not doubled).
    /// Its origin (scheme, host, port) is the only one redirects and next links may lead to.
    public var url: String
    /// Query parameters added to the URL of the first page and of every page the pagination style builds
    /// (not to next links, which carry their own query).
    public var query: [(name: String, value: String)] = []
    /// Headers sent with every page request, e.g. `Authorization`.
    public var headers: [(name: String, value: String)]
    /// HTTP method; `GET` unless the API wants e.g. a `POST` with a JSON body.
    public var method = "GET"
    /// A JSON body sent with every page request (`Content-Type: application/json`); nil sends none.
    public var body: JSONValue? = nil
    /// Query parameter carrying the page size; `nil` sends none.
    public var limitParameter: String? = "limit"
    /// Items asked for per page.
    public var pageSize: Int = 50
    /// Limit for each page request.
    public var timeout: Duration = .seconds(15)

    /// A template for `url`, with `headers`.
    public init(url: String, headers: [(name: String, value: String)] = []) {
        self.url = url
        self.headers = headers
    }
}
