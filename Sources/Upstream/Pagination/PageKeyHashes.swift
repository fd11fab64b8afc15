import JSON
import Locking
import Synchronization

/// The key hashes of the pages a table's walks read last, made once per page (issue 17, "arrivals as cheap as a
/// broadcast": every viewer's walk of the first page from the page cache evaluated the key path of each item and
/// hashed it under the same hash key).
///
/// What it keeps of a page is its ``PageKeys``: the hashes and the page's own repeats, so that a walk starting
/// with the page (every arrival's) builds no set of its keys either.
///
/// Keyed by identity: an entry is used only for the very texts it was made for (a page from the cache: its
/// ``ItemTexts/identity``), and only by walks hashing with ``key``. Each item's hash, nil where the item has no key
/// (missing or null). An entry holds its page's identity weakly and nothing else of the page: a page the cache
/// dropped is freed, and its entry goes at the next call (an identity is never reused while a weak reference to it
/// reads nil). Bounded: at most ``capacity`` entries (the oldest goes).
///
/// Thread-safe: one `Lock`; hashes are computed outside it.
public final class PageKeyHashes: Sendable {
    private struct Entry {
        weak var page: ItemTextsIdentity?
        let keys: PageKeys
    }

    /// The hash key of every walk that may use these hashes (the table's ``WalkHashKey``).
    let key: WalkHashKey
    private let entries = Lock<[Entry]>([])
    private let made = Atomic<Int>(0)

    static var capacity: Int { 8 }

    /// Hashes for walks with `key`.
    public init(key: WalkHashKey) { self.key = key }

    /// How many pages' hashes were computed (tests).
    var computed: Int { made.load(ordering: .relaxed) }

    /// The keys of `texts` at `keyPath` under ``key`` (``PageKeys``), kept for the next walk of this page.
    func keys(of texts: ItemTexts, keyPath: JSONPath) -> PageKeys {
        let page = texts.identity
        if let found = entries.withLock({ entries in entries.last { $0.page === page }?.keys }) {
            return found
        }
        let keys = PageKeys(hashes: Self.hashes(of: texts, keyPath: keyPath, with: RecentKeys(key: key)))
        made.add(1, ordering: .relaxed)
        guard !texts.ranges.isEmpty else { return keys }
        entries.withLock { entries in
            entries.removeAll { $0.page == nil || $0.page === page }
            if entries.count >= Self.capacity { entries.removeFirst(entries.count - Self.capacity + 1) }
            entries.append(Entry(page: page, keys: keys))
        }
        return keys
    }

    /// Entries whose page is still alive somewhere (tests).
    var live: Int { entries.withLock { $0.count { $0.page != nil } } }

    /// Each item's key hash under `keys`' hash key (nil: no key), the key read from the item's text.
    static func hashes(of texts: ItemTexts, keyPath: JSONPath, with keys: RecentKeys) -> [UInt64?] {
        texts.ranges.indices.map { index in
            guard let key = texts.value(at: keyPath, in: index), !key.isNull else { return nil }
            return keys.hash(key)
        }
    }
}
