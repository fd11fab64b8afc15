import JSON

/// How an upstream API links one page to the next.
///
/// Each style gives the page source's cursor string its meaning: an opaque token (`cursor`,
/// `cursorInBody`), an absolute URL (`linkHeader`, `nextURL`), the last item's key (`keyset`), or a
/// number (`offset`, `pageNumber`). A plain value: thread-safe.
public enum PaginationStyle: Sendable {
    /// The body carries an opaque token at `nextCursorPath`; the next request sends it as query
    /// parameter `parameter`. A missing, `null` or empty token means the last page.
    case cursor(parameter: String, nextCursorPath: JSONPath)
    /// As `cursor`, but the token goes into the JSON request body as member `field` (the template's
    /// body must then be an object, usually with method POST).
    case cursorInBody(field: String, nextCursorPath: JSONPath)
    /// The `Link` response header's `rel="next"` URL (GitHub, Shopify). No such link: the last page.
    case linkHeader
    /// The next page's URL sits in the body at `path` (`next`, `links.next`, `@odata.nextLink`,
    /// `_links.next.href`, ...); relative URLs resolve against the page's URL.
    case nextURL(path: JSONPath)
    /// Keyset: the key at `keyPath` of the page's last item is sent as `parameter`
    /// (`starting_after=<id>`). An empty or short page is the last.
    case keyset(parameter: String, keyPath: JSONPath)
    /// Offset/limit: `parameter` is the number of items to skip; `end` says where the list stops.
    case offset(parameter: String, end: PageEnd)
    /// Page numbers: `parameter` is the page, starting at `first` (usually 1, sometimes 0).
    case pageNumber(parameter: String, first: Int, end: PageEnd)

    /// Whether the style's cursor is an absolute URL (checked against the configured origin).
    var cursorIsURL: Bool {
        switch self {
        case .linkHeader, .nextURL: true
        default: false
        }
    }
}

/// Where a counted list (offset or page-number pagination) ends. A plain value: thread-safe.
public enum PageEnd: Sendable, Equatable {
    /// The body holds the total item count at this path.
    case total(JSONPath)
    /// The body holds the total page count at this path.
    case totalPages(JSONPath)
    /// A page with fewer items than asked for (or none) is the last. Assumes the upstream honours the
    /// page size; use `emptyPage` for one that caps it lower.
    case shortPage
    /// Only an empty page ends the list (costs one extra request).
    case emptyPage
}
