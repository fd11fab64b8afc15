/// How to ask the upstream for one page: the base URL and headers every page request shares.
///
/// A plain value: thread-safe. Headers may carry secrets (API tokens); they are sent upstream and
/// never appear in an ``UpstreamError``'s description.
public struct PageRequestTemplate: Sendable {
    /// Base URL; may already have a query (parameters this template sets are replaced, not doubled).
    public var url: String
    /// Headers sent with every page request, e.g. `Authorization`.
    public var headers: [(name: String, value: String)]
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
