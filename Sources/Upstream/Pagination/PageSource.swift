import JSON

/// Fetches pages of one upstream list, one request per page, following a ``PaginationStyle``.
///
/// A plain value: thread-safe (it holds the thread-safe ``UpstreamClient``).
public struct PageSource: Sendable {
    /// The client doing the fetching.
    public let client: UpstreamClient
    /// The shared shape of every page request.
    public let template: PageRequestTemplate
    /// Where the items array sits in each page's JSON body.
    public let itemsPath: JSONPath
    /// How pages link to each other.
    public let style: PaginationStyle

    /// A source of pages from `client`, shaped by `template`, read with `itemsPath` and `style`.
    public init(client: UpstreamClient, template: PageRequestTemplate, itemsPath: JSONPath, style: PaginationStyle) {
        self.client = client
        self.template = template
        self.itemsPath = itemsPath
        self.style = style
    }

    /// Fetches one page. `cursor` nil = the first page.
    ///
    /// Query parameters are appended percent-encoded (RFC 3986 unreserved characters kept).
    /// A non-2xx answer throws ``UpstreamError/httpStatus(_:)``; a body that is not JSON, or whose
    /// items are not an array, throws ``UpstreamError/invalidPage(_:)``. An empty page that still
    /// carries a next cursor is not the end. A next cursor equal to the one just sent throws
    /// `.invalidPage("cursor did not advance")`, since following it would loop forever.
    public func fetchPage(cursor: String?) async throws(UpstreamError) -> Page {
        let response = try await client.fetch(request(cursor: cursor))
        guard response.isSuccess else { throw .httpStatus(response.status) }
        let body: JSONValue
        do {
            body = try JSONValue.parse(response.body)
        } catch {
            throw .invalidPage("body is not JSON")
        }
        guard let items = itemsPath.evaluate(body)?.arrayValue else { throw .invalidPage("items are not an array") }
        switch style {
        case .cursor(_, let nextCursorPath):
            let next = try Self.cursor(at: nextCursorPath, in: body)
            if let next, next == cursor { throw .invalidPage("cursor did not advance") }
            return Page(items: items, nextCursor: next)
        }
    }

    /// The request for the page after `cursor` (nil = first page).
    func request(cursor: String?) -> UpstreamRequest {
        var parameters: [(name: String, value: String)] = []
        if let limit = template.limitParameter { parameters.append((limit, String(template.pageSize))) }
        switch style {
        case .cursor(let name, _):
            if let cursor { parameters.append((name, cursor)) }
        }
        var request = UpstreamRequest(url: QueryString.url(template.url, setting: parameters))
        request.headers = template.headers
        request.timeout = template.timeout
        return request
    }

    /// The next-page cursor found at `path`: a string or an integer; missing, null or "" = none.
    private static func cursor(at path: JSONPath, in body: JSONValue) throws(UpstreamError) -> String? {
        switch path.evaluate(body) {
        case nil, .null?: return nil
        case .string(let token)?: return token.isEmpty ? nil : token
        case .int(let number)?: return String(number)
        default: throw .invalidPage("next cursor is not a string")
        }
    }
}
