import JSON

/// Fetches pages of one upstream list, one request per page, following a ``PaginationStyle``, and reads each
/// page's items with its ``ItemReader`` as the body is read (a config table's: straight into rows).
///
/// Every redirect and next-page link is followed only within the template URL's origin; failed requests are
/// retried per ``RetryPolicy``; pages are checked (``PageChecks``); with a ``PageCache`` concurrent requests for
/// one page share one fetch, recent pages are served from memory and the next page is prefetched.
///
/// A plain value: thread-safe (it holds a thread-safe ``UpstreamTransport``, in production the ``UpstreamClient``,
/// and ``PageCache``). Its parts live in one immutable box, so a copy (every viewer's loader keeps one) is a pointer.
public struct PageSource<Item: Sendable>: Sendable {
    /// The parts, shared by every copy. Immutable, so thread-safe.
    private final class Parts: Sendable {
        let client: any UpstreamTransport
        let template: PageRequestTemplate
        let itemsPath: JSONPath
        let style: PaginationStyle
        let reader: ItemReader<Item>
        let checks: PageChecks
        let retry: RetryPolicy
        let cache: PageCache<Item>?
        /// Whether every page is fetched past `cache` and put in it (``refreshing()``).
        let refreshes: Bool
        let origin: UpstreamOrigin?
        /// Whether a path read from the body goes into the items (then the body is parsed whole).
        let bodyPathsEnterItems: Bool

        init(client: any UpstreamTransport, template: PageRequestTemplate, itemsPath: JSONPath, style: PaginationStyle,
             reader: ItemReader<Item>, checks: PageChecks, retry: RetryPolicy, cache: PageCache<Item>?,
             refreshes: Bool = false) {
            self.client = client
            self.template = template
            self.itemsPath = itemsPath
            self.style = style
            self.reader = reader
            self.checks = checks
            self.retry = retry
            self.cache = cache
            self.refreshes = refreshes
            origin = UpstreamOrigin(url: template.url)
            bodyPathsEnterItems = PageSource.bodyPaths(style: style, checks: checks).contains {
                PageSource.enters(itemsPath, $0)
            }
        }
    }

    private var parts: Parts

    /// What does the fetching: the ``UpstreamClient``, or a test's in-process transport.
    public var client: any UpstreamTransport { parts.client }
    /// The shared shape of every page request.
    public var template: PageRequestTemplate { parts.template }
    /// Where the items sit in each page's JSON body: an array (`data`), or every match of a path through
    /// arrays (`data.edges[].node`).
    public var itemsPath: JSONPath { parts.itemsPath }
    /// How pages link to each other.
    public var style: PaginationStyle { parts.style }
    /// How each item is read from its JSON text.
    public var reader: ItemReader<Item> { parts.reader }
    /// What a good page looks like.
    public var checks: PageChecks { parts.checks }
    /// Retries of failed requests.
    public var retry: RetryPolicy { parts.retry }
    /// Coalescing, short-lived cache and prefetch; nil fetches every page every time.
    public var cache: PageCache<Item>? { parts.cache }
    /// Whether this source refreshes its cache (``refreshing()``).
    public var refreshes: Bool { parts.refreshes }
    /// The only origin requests, redirects and next links may use: the template URL's.
    public var origin: UpstreamOrigin? { parts.origin }

    /// Redirects followed per request (each within `origin`).
    static var maxRedirects: Int { 5 }

    /// Whether a body is parsed whole (a path read from it goes into the items), rather than with its items left as
    /// text for the reader.
    var parsesBodyWhole: Bool { parts.bodyPathsEnterItems }

    /// A source of pages from `client`, shaped by `template`, read with `itemsPath` and `style`, each item by `reader`.
    public init(client: any UpstreamTransport, template: PageRequestTemplate, itemsPath: JSONPath, style: PaginationStyle,
                reader: ItemReader<Item>, checks: PageChecks = PageChecks(), retry: RetryPolicy = .never,
                cache: PageCache<Item>? = nil) {
        parts = Parts(client: client, template: template, itemsPath: itemsPath, style: style, reader: reader,
                      checks: checks, retry: retry, cache: cache)
    }

    /// This source for a live refresh: each page fetched past the cache (a fetch of its own, started now), and put
    /// into the cache in place of the page it held (``PageCache/replace(_:load:)``), so that viewers who come after the
    /// refresh read what it read. Without a cache, the same as this source.
    public func refreshing() -> PageSource {
        var copy = self
        copy.parts = Parts(client: client, template: template, itemsPath: itemsPath, style: style, reader: reader,
                           checks: checks, retry: retry, cache: cache, refreshes: true)
        return copy
    }

    /// The request for the page after `cursor` (nil = first page).
    func request(cursor: String?) throws(UpstreamError) -> UpstreamRequest {
        var parameters = template.query
        if let limit = template.limitParameter { parameters.append((limit, String(template.pageSize))) }
        var url = template.url
        var body = template.body
        switch style {
        case .cursor(let name, _), .keyset(let name, _):
            if let cursor { parameters.append((name, cursor)) }
        case .cursorInBody(let field, _):
            if let cursor {
                guard case .object(var members) = body ?? .object([:]) else { throw .invalidRequest }
                members[field] = .string(cursor)
                body = .object(members)
            }
        case .linkHeader, .nextURL:
            if let cursor {
                // A next link is used as given (it carries its own query), and only within the origin.
                guard let origin, origin.contains(cursor) else { throw .offOrigin }
                url = cursor
                parameters = []
            }
        case .offset(let name, _):
            parameters.append((name, cursor ?? "0"))
        case .pageNumber(let name, let first, _):
            parameters.append((name, cursor ?? String(first)))
        }
        var request = UpstreamRequest(url: parameters.isEmpty ? url : QueryString.url(url, setting: parameters))
        request.method = template.method
        request.headers = template.headers
        request.timeout = template.timeout
        if let body {
            request.body = body.serialized()
            if !request.headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                request.headers.append(("Content-Type", "application/json"))
            }
        }
        return request
    }
}

extension PageSource where Item == JSONValue {
    /// A source of pages of JSON items from `client`, shaped by `template`, read with `itemsPath` and `style`.
    public init(client: any UpstreamTransport, template: PageRequestTemplate, itemsPath: JSONPath, style: PaginationStyle,
                checks: PageChecks = PageChecks(), retry: RetryPolicy = .never, cache: PageCache<JSONValue>? = nil) {
        self.init(client: client, template: template, itemsPath: itemsPath, style: style, reader: .json,
                  checks: checks, retry: retry, cache: cache)
    }
}

/// Where a page's body is read: its items, and the paths read besides them (the read is in PageSource+Fetch.swift).
extension PageSource {
    /// Where the items are, as a path of every match: `data` (an array) is `data[]`; `edges[].node` as it is.
    static func itemsPath(_ path: JSONPath) -> JSONPath {
        path.components.contains(.each) ? path : JSONPath(components: path.components + [.each])
    }

    /// The paths a page's body is read at besides its items: the checks, and the style's cursor and counts (the
    /// keyset key is read from the last item's text).
    static func bodyPaths(style: PaginationStyle, checks: PageChecks) -> [JSONPath] {
        var paths = [checks.okPath, checks.errorPath, checks.hasMorePath, checks.totalPath].compactMap { $0 }
        switch style {
        case .cursor(_, let path), .cursorInBody(_, let path), .nextURL(let path): paths.append(path)
        case .offset(_, let end), .pageNumber(_, _, let end):
            switch end {
            case .total(let path), .totalPages(let path): paths.append(path)
            case .shortPage, .emptyPage: break
            }
        case .linkHeader, .keyset: break
        }
        return paths
    }

    /// The list's total as `document` reports it: at ``PageChecks/totalPath``, else at an offset or page-number
    /// style's `total` end; nil when neither is set or the value is not a whole number from 0 up.
    static func reportedTotal(in document: JSONValue, style: PaginationStyle, checks: PageChecks) -> Int? {
        var path = checks.totalPath
        if path == nil, case .offset(_, .total(let end)) = style { path = end }
        if path == nil, case .pageNumber(_, _, .total(let end)) = style { path = end }
        guard let path, let total = path.evaluate(document)?.intValue, total >= 0 else { return nil }
        return Int(total)
    }

    /// Whether the value at `path` may be or hold an item at `itemsPath`, or lie inside one (component by component,
    /// an index or `[]` meeting any index or `[]`): then it is read from the whole body, not from the items' stand-ins
    /// (an `errorPath` of `data` over items at `data[]` shows the items in its message).
    static func enters(_ itemsPath: JSONPath, _ path: JSONPath) -> Bool {
        let items = Self.itemsPath(itemsPath).components
        return zip(items, path.components).allSatisfy { item, step in
            switch (item, step) {
            case (.key(let a), .key(let b)): a == b
            case (.key, _), (_, .key): false
            default: true
            }
        }
    }
}
