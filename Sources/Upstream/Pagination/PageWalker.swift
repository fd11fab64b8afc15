import JSON
import Synchronization

/// One reader's walk through a list: it never hands the same item (by key) twice, even when offset drift
/// repeats items across pages; it skips empty pages that still carry a cursor, up to `maxEmptyPages` in a
/// row; and it stops a cursor loop (a cursor seen before in this walk) with an error instead of going round.
///
/// Thread-safe: the walk's memory is in one `Mutex`; fetches run outside it. A walk belongs to one reader
/// (one viewer); starting from the first page again forgets what it saw.
public final class PageWalker: Sendable {
    private struct State {
        var seenKeys: Set<String> = []
        var seenCursors: Set<String> = []
    }

    /// Where an item's key is; items without one are never dropped. nil: no deduplication.
    public let keyPath: JSONPath?
    /// Empty pages (after dropping repeats) skipped in a row before failing.
    public let maxEmptyPages: Int
    private let state = Mutex(State())

    /// A walk deduplicating by `keyPath`, failing after `maxEmptyPages` empty pages in a row.
    public init(keyPath: JSONPath?, maxEmptyPages: Int = 5) {
        self.keyPath = keyPath
        self.maxEmptyPages = max(0, maxEmptyPages)
    }

    /// The next non-empty batch from `cursor` (nil = first page, which starts the walk afresh), or the empty
    /// last page. Its `nextCursor` is where the following batch starts.
    public func nextBatch(from source: PageSource, cursor: String?) async throws(UpstreamError) -> Page {
        if cursor == nil { state.withLock { $0 = State() } }
        var cursor = cursor
        var emptyInARow = 0
        while true {
            let page = try await source.fetchPage(cursor: cursor)
            let fresh = try admit(page, from: cursor)
            guard fresh.items.isEmpty, let next = fresh.nextCursor else { return fresh }
            emptyInARow += 1
            guard emptyInARow <= maxEmptyPages else {
                throw .invalidPage("\(emptyInARow) empty pages in a row")
            }
            cursor = next
        }
    }

    /// Records `page` as read from `cursor`: drops repeated items, fails on a cursor loop.
    func admit(_ page: Page, from cursor: String?) throws(UpstreamError) -> Page {
        try state.withLock { (state: inout State) throws(UpstreamError) -> Page in
            if let cursor { state.seenCursors.insert(cursor) }
            if let next = page.nextCursor, state.seenCursors.contains(next) {
                throw .invalidPage("the upstream's next cursor repeats an earlier one (a loop)")
            }
            guard let keyPath else { return page }
            var fresh = page
            fresh.items = page.items.filter { item in
                guard let key = keyPath.evaluate(item), !key.isNull else { return true }
                return state.seenKeys.insert(String(decoding: key.serialized(), as: UTF8.self)).inserted
            }
            return fresh
        }
    }
}
