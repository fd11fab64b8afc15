import Batches
import JSON
import Locking
import Tables

/// One reader's walk through a list: it drops an item whose key was on the page it read just before, or the one
/// before that, or earlier on the same page (offset drift: rows inserted above the reader repeat the end of one
/// page at the start of the next); it skips empty pages that still carry a cursor, up to `maxEmptyPages` in a
/// row; and it stops a cursor loop (a cursor seen before in this walk) with an error instead of going round.
///
/// Memory is bounded by the page size, not by the rows read: the keys of the last two pages as 64-bit hashes
/// (``RecentKeys``), plus one 64-bit hash per cursor followed (for loop detection).
///
/// Resumable: with each batch ``nextBatch(from:at:)`` returns the next ``WalkPosition``, which carries the last keys
/// read (``KeyWindow``); a new walker (a reconnect, another instance) given that position drops the same repeats. The
/// walker that returned a position goes on with its whole memory; any other position replaces the key memory with
/// the position's window (cursor loops are then checked from there on).
///
/// Thread-safe: the walk's memory is in one `Lock`; fetches run outside it. A walk belongs to one reader
/// (one viewer); starting from the first page again forgets what it saw.
public final class PageWalker<Item: Sendable>: Sendable {
    private typealias State = PageWalkerState

    /// Where an item's key is; items without one are never dropped. nil: no deduplication.
    public let keyPath: JSONPath?
    /// Empty pages (after dropping repeats) skipped in a row before failing.
    public let maxEmptyPages: Int
    /// The hash key of a fresh walk's dedup memory.
    private let hashKey: WalkHashKey
    /// The key hashes of the pages the table's walks read last (nil: each walk hashes its pages itself).
    private let pageHashes: PageKeyHashes?
    private let state: Lock<State>

    /// A walk deduplicating by `keyPath`, failing after `maxEmptyPages` empty pages in a row, hashing keys with
    /// `hashKey` (a table's walks share one: the same pages then give equal positions, which viewers can share).
    /// `pageHashes` (made with the same `hashKey`): the table's walks hash each cached page's keys once.
    public init(keyPath: JSONPath?, maxEmptyPages: Int = 5, hashKey: WalkHashKey = .random(),
                pageHashes: PageKeyHashes? = nil) {
        self.keyPath = keyPath
        self.maxEmptyPages = max(0, maxEmptyPages)
        self.hashKey = hashKey
        self.pageHashes = pageHashes.flatMap { $0.key == hashKey ? $0 : nil }
        state = Lock(State(recentKeys: RecentKeys(key: hashKey)))
    }

    /// The next non-empty batch from `cursor` (nil = first page, which starts the walk afresh), or the empty
    /// last page. Its `nextCursor` is where the following batch starts.
    public func nextBatch(from source: PageSource<Item>, cursor: String?) async throws(UpstreamError) -> UpstreamPage<Item> {
        if cursor == nil { state.withLock { $0 = State(recentKeys: RecentKeys(key: hashKey)) } }
        return try await walk(source, from: cursor)
    }

    /// The next non-empty batch from `position` (nil = first page, which starts the walk afresh), or the empty
    /// last page, as the batches take it (``LoadResult``: the items with the position after them, or the last
    /// page's as `.completed`), and the list's total if the page reported one. A position this walker did not just
    /// return (a resumed walk) brings its own key window.
    // Specialized here for the rows a config table's walk carries, its entry point exported: Dashboard calls it
    // with no generic metadata looked up per call (unspecialized, an arrival spent ~10k instructions on that).
    @_specialize(exported: true, where Item == Row)
    public func nextBatch(
        from source: PageSource<Item>, at position: WalkPosition?
    ) async throws(UpstreamError) -> (batch: LoadResult<Item, WalkPosition?>, total: Int?) {
        if let position { resume(from: position) } else { state.withLock { $0 = State(recentKeys: RecentKeys(key: hashKey)) } }
        let page = try await walk(source, from: position?.cursor)
        return (state.withLock { batch(of: page, returning: &$0) }, page.total)
    }

    /// The batch of `page`, just walked (its items, the position after them, or `.completed` for the last page),
    /// recorded as the position this walk returned. Called under the lock.
    private func batch(of page: UpstreamPage<Item>, returning state: inout State) -> LoadResult<Item, WalkPosition?> {
        let next = page.nextCursor.map { cursor in
            WalkPosition(cursor: cursor, window: keyPath == nil ? nil : state.recentKeys.window)
        }
        state.returned = next
        return next.map { .items(page.items, next: $0) } ?? .completed(page.items)
    }

    /// ``nextBatch(from:at:)`` of the first page (a fresh walk) when `source` holds it in memory: done now, with no
    /// suspension, so an event loop may ask (a viewer's first batch: issue 17, arrivals). nil when the page is not in
    /// memory, or when its items all repeat and its cursor leads on (the walk would fetch the next page): then
    /// ``nextBatch(from:at:)`` from nil loads it as if this had not been asked (it starts the walk afresh).
    /// `page`: the cached page's identity (one object per page the cache holds): the same for every walk that took the
    /// same page, whose batches are then the same.
    @_specialize(exported: true, where Item == Row)
    public func firstBatchInMemory(from source: PageSource<Item>)
        -> (batch: LoadResult<Item, WalkPosition?>, total: Int?, page: any AnyObject & Sendable)?
    {
        guard let page = source.pageInMemory(cursor: nil) else { return nil }
        return state.withLock { state -> (batch: LoadResult<Item, WalkPosition?>, total: Int?, page: any AnyObject & Sendable)? in
            state = State(recentKeys: RecentKeys(key: hashKey))
            // A fresh walk's first page: no cursor to remember, none seen before to loop to.
            guard let fresh = try? Self.admit(page, from: nil, keyPath: keyPath, pageHashes: pageHashes, into: &state),
                  !(fresh.items.isEmpty && fresh.nextCursor != nil) else { return nil }
            return (batch(of: fresh, returning: &state), fresh.total, page.texts.identity)
        }
    }

    /// Takes `position`'s key window as the walk's memory of keys, unless it is the position this walk returned
    /// last (then the walk goes on with its whole memory).
    func resume(from position: WalkPosition) {
        state.withLock { state in
            guard position != state.returned else { return }
            state.recentKeys = position.window.map(RecentKeys.init(resuming:)) ?? RecentKeys(key: hashKey)
            state.returned = nil
        }
    }

    /// The key window a position handed out now would carry (nil: the walk does not deduplicate).
    var window: KeyWindow? { keyPath == nil ? nil : state.withLock { $0.recentKeys.window } }

    /// Pages from `cursor` until one with items (or the last), within the empty-page bound.
    private func walk(_ source: PageSource<Item>, from cursor: String?) async throws(UpstreamError) -> UpstreamPage<Item> {
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

    /// The key hashes the walk holds (at most two pages' keys), and the cursors it has followed.
    var held: (keys: Int, cursors: Int) { state.withLock { ($0.recentKeys.count, $0.seenCursors.count) } }

    /// The key hashes the walk's arrays have room for (their capacities): its memory, for tests.
    var storedHashes: Int { state.withLock { $0.recentKeys.storedHashes } }

    /// Records `page` as read from `cursor`: drops repeated items, fails on a cursor loop.
    /// A cancelled task's walk (a load that a reload or a timeout made stale, whose fetch had answered it already)
    /// records nothing: it throws `.cancelled`. Checked under the lock, so a stale walk cannot record its page after a
    /// reload's fresh walk of the same walker started over (which would make the fresh walk's first page repeats).
    func admit(_ page: UpstreamPage<Item>, from cursor: String?) throws(UpstreamError) -> UpstreamPage<Item> {
        try state.withLock { (state: inout State) throws(UpstreamError) -> UpstreamPage<Item> in
            if Task.isCancelled { throw .cancelled }
            return try Self.admit(page, from: cursor, keyPath: keyPath, pageHashes: pageHashes, into: &state)
        }
    }

    /// ``admit(_:from:)`` under the lock, into `state`.
    private static func admit(_ page: UpstreamPage<Item>, from cursor: String?, keyPath: JSONPath?,
                              pageHashes: PageKeyHashes?, into state: inout State) throws(UpstreamError) -> UpstreamPage<Item> {
        if let cursor { state.seenCursors.insert(RecentKeys.hash(cursor)) }
        if let next = page.nextCursor, state.seenCursors.contains(RecentKeys.hash(next)) {
            throw .invalidPage("the upstream's next cursor repeats an earlier one (a loop)")
        }
        guard let keyPath else { return page }
        // The table's keys of this very page when the walk hashes with the table's key (a resumed walk may not).
        let keys = if let shared = pageHashes, state.recentKeys.hashKey == shared.key {
            shared.keys(of: page.texts, keyPath: keyPath)
        } else {
            PageKeys(hashes: PageKeyHashes.hashes(of: page.texts, keyPath: keyPath, with: state.recentKeys))
        }
        let dropped = keys.dropped(after: state.recentKeys)
        state.recentKeys.record(page: keys.keyed)
        // Nothing dropped: the page as it came, its items the very array the page cache holds, so that viewers
        // reading the same cached page share what is made from it (RowstreamKit's RecentBatches).
        return page.dropping(dropped)
    }
}

/// A ``PageWalker``'s memory, under its lock. Not nested in the generic class, which made its type (and its lock's)
/// one looked up at run time for every walker made: one per arriving viewer.
struct PageWalkerState {
    var recentKeys: RecentKeys
    var seenCursors: Set<UInt64> = []
    /// The position this walk last returned: a call from it goes on with the memory above.
    var returned: WalkPosition?
}
