import JSON

/// One page of items from an upstream: each item as its source's ``ItemReader`` read it (a JSON value, or a
/// table's row) and as the upstream sent it (``ItemTexts``). A plain value: thread-safe.
public struct UpstreamPage<Item: Sendable>: Sendable {
    /// The page's items, in upstream order; may be empty even when more pages follow.
    public var items: [Item]
    /// Each item's JSON text, index-aligned with ``items``.
    public var texts: ItemTexts
    /// The cursor to ask for the next page; `nil` means this is the last page.
    public var nextCursor: String?
    /// How many items the whole list holds, as the page's body reported it (``PageChecks/totalPath``, or an offset or
    /// page-number style's `total`); nil: not reported. Shown as "150 of 2,500" (issue 28).
    public var total: Int?

    /// A page of `items` with their `texts` (index-aligned), followed by `nextCursor` (nil = last page), of a list
    /// of `total` items (nil: not reported).
    public init(items: [Item], texts: ItemTexts, nextCursor: String?, total: Int? = nil) {
        precondition(items.count == texts.count, "a page's items and texts are index-aligned")
        self.items = items
        self.texts = texts
        self.nextCursor = nextCursor
        self.total = total
    }

    /// This page without the items at `dropped` (ascending indices).
    func dropping(_ dropped: [Int]) -> UpstreamPage {
        guard !dropped.isEmpty else { return self }
        return UpstreamPage(items: ItemTexts.dropping(dropped, from: items), texts: texts.dropping(dropped),
                            nextCursor: nextCursor, total: total)
    }
}

extension UpstreamPage where Item == JSONValue {
    /// A page of JSON `items` (their texts written out), followed by `nextCursor` (nil = last page).
    public init(items: [JSONValue], nextCursor: String?) {
        self.init(items: items, texts: ItemTexts(items), nextCursor: nextCursor)
    }
}
