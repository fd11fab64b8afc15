import JSON

/// One page of items from an upstream. A plain value: thread-safe.
public struct UpstreamPage: Sendable {
    /// The page's items, in upstream order; may be empty even when more pages follow.
    public var items: [JSONValue]
    /// The cursor to ask for the next page; `nil` means this is the last page.
    public var nextCursor: String?

    /// A page of `items` followed by `nextCursor` (nil = last page).
    public init(items: [JSONValue], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}
