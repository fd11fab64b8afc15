import Batches
import JSON
import Locking
import Synchronization

/// The key hashes of the pages a table's walks read last, made once per page (issue 17, "arrivals as cheap as a
/// broadcast": every viewer's walk of the first page from the page cache evaluated the key path of each item and
/// hashed it under the same hash key).
///
/// Keyed by identity: an entry is used only for the very item ranges it holds (a page from the cache), so its
/// address cannot be reused while the entry lives, and only by walks hashing with ``key``. Each item's hash, nil
/// where the item has no key (missing or null). Bounded: at most ``capacity`` entries (the oldest goes).
///
/// Thread-safe: one `Lock`; hashes are computed outside it.
public final class PageKeyHashes: Sendable {
    /// The hash key of every walk that may use these hashes (the table's ``WalkHashKey``).
    let key: WalkHashKey
    private let entries = Lock<[(items: [Range<Int>], hashes: [UInt64?])]>([])
    private let made = Atomic<Int>(0)

    static var capacity: Int { 8 }

    /// Hashes for walks with `key`.
    public init(key: WalkHashKey) { self.key = key }

    /// How many pages' hashes were computed (tests).
    var computed: Int { made.load(ordering: .relaxed) }

    /// The hash of each item's key at `keyPath` under ``key`` (nil: no key), kept for the next walk of this page.
    func hashes(of texts: ItemTexts, keyPath: JSONPath) -> [UInt64?] {
        let items = texts.ranges
        if let found = entries.withLock({ entries in entries.last { $0.items.isSameBuffer(as: items) }?.hashes }) {
            return found
        }
        let hashes = Self.hashes(of: texts, keyPath: keyPath, with: RecentKeys(key: key))
        made.add(1, ordering: .relaxed)
        guard !items.isEmpty else { return hashes }
        entries.withLock { entries in
            entries.removeAll { $0.items.isSameBuffer(as: items) }
            if entries.count >= Self.capacity { entries.removeFirst(entries.count - Self.capacity + 1) }
            entries.append((items, hashes))
        }
        return hashes
    }

    /// Each item's key hash under `keys`' hash key (nil: no key), the key read from the item's text.
    static func hashes(of texts: ItemTexts, keyPath: JSONPath, with keys: RecentKeys) -> [UInt64?] {
        texts.ranges.indices.map { index in
            guard let key = texts.value(at: keyPath, in: index), !key.isNull else { return nil }
            return keys.hash(key)
        }
    }
}
