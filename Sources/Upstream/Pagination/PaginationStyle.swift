import JSON

/// How an upstream API links one page to the next. More styles (Link headers, next URLs,
/// offsets, page numbers) join as further cases.
///
/// A plain value: thread-safe.
public enum PaginationStyle: Sendable {
    /// The body carries an opaque token at `nextCursorPath`; the next request sends it as query
    /// parameter `parameter`. A missing, `null` or empty token means the last page.
    case cursor(parameter: String, nextCursorPath: JSONPath)
}
