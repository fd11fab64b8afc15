import Locking
import Tables

/// The last batches a table's pipeline made, so that viewers loading the same items at the same place share one
/// making of their rows and one sealing of the position after them (issue 17, "arrivals as cheap as a broadcast":
/// a storm of viewers opening one table all load its first page from the page cache).
///
/// Keyed by identity, never by content (``HeldBuffer``): a batch is shared only when the source returned the very same items array
/// (a page from the cache, untouched by the walk's dedup) that an entry holds, so nothing is shared that the page
/// cache would not have served anyway, and the entry's array, held here, cannot be freed and its address reused
/// while the entry lives. The next position is shared only for an equal next token (``RowPipeline`` keeps no
/// entries for viewer-scoped positions: each viewer's seal is its own).
///
/// Bounded: at most ``capacity`` entries (the oldest goes), each at most ``lifetime`` old, and no batch of more
/// than ``maxItems`` items.
///
/// Thread-safe: one `Lock`; rows are made and positions sealed outside it.
final class RecentBatches<Item: Sendable, Token: Sendable & Equatable>: Sendable {
    struct Entry: Sendable {
        let items: HeldBuffer<Item>
        let rows: [Row]
        /// The next token of the batch (nil: the last batch) and its sealed position.
        let next: Token?
        let position: TablePosition?
        let made: ContinuousClock.Instant
    }

    static var capacity: Int { 8 }
    static var maxItems: Int { 1_000 }
    static var lifetime: Duration { .seconds(10) }

    private let entries = Lock<[Entry]>([])

    /// The entry made from this very `items` array, if one is held and young enough.
    func entry(for items: [Item], now: ContinuousClock.Instant = .now) -> Entry? {
        guard !items.isEmpty else { return nil }
        return entries.withLock { entries in
            Self.dropExpired(from: &entries, now: now)
            for index in entries.indices.reversed() where entries[index].items.holds(items) { return entries[index] }
            return nil
        }
    }

    /// Keeps `rows` made from `items` and the position sealed for `next`.
    func remember(items: [Item], rows: [Row], next: Token?, position: TablePosition?,
                  now: ContinuousClock.Instant = .now) {
        guard !items.isEmpty, items.count <= Self.maxItems else { return }
        let entry = Entry(items: HeldBuffer(items), rows: rows, next: next, position: position, made: now)
        entries.withLock { entries in
            Self.dropExpired(from: &entries, now: now)
            if entries.count >= Self.capacity { entries.removeFirst(entries.count - Self.capacity + 1) }
            entries.append(entry)
        }
    }

    /// Removes the entries older than ``lifetime``. Index loops, not `removeAll(where:)` and `last(where:)`: this
    /// class is not specialized (its pipeline is generic over the source), and the standard library's unspecialized
    /// algorithms put each element of a generic type in a heap buffer (4 mallocs an arrival in a storm).
    private static func dropExpired(from entries: inout [Entry], now: ContinuousClock.Instant) {
        var index = entries.startIndex
        while index < entries.endIndex {
            if now - entries[index].made > lifetime { entries.remove(at: index) } else { index += 1 }
        }
    }

    /// How many entries are held (tests).
    var count: Int { entries.withLock { $0.count } }
}
