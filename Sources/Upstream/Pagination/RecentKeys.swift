import JSON

/// The item keys of the last two pages one walk read, as 64-bit hashes: what ``PageWalker`` deduplicates against.
///
/// Bounded: at most two pages' worth of 8-byte hashes, whatever the number of pages read: the older page's sorted,
/// the last ``KeyWindow/capacity`` hashes in read order (the ``window`` a resume token carries), and the newer
/// page's sorted only when it has more keys than that (otherwise it is the end of the window, searched in place:
/// an idle viewer after its first page holds one array of its page's hashes, not two). Offset pagination repeats
/// items when rows are inserted above the reader: the next page then starts with the end of the page before it,
/// which is what this keeps. An item last seen three or more pages back is not recognised. Keys are hashed with
/// SipHash-2-4 under a random key (``KeyWindow``, ``WalkHashKey``: one per table, so walks over the same pages carry
/// equal windows): two different keys share a hash with probability about 2^-64 per pair, and an upstream cannot
/// choose keys that collide (the key never leaves the server unsealed).
///
/// A plain value, confined to its owner (``PageWalker`` keeps it under its lock).
struct RecentKeys {
    /// The older page's hashes, sorted.
    private var older: [UInt64] = []
    /// The newer page's hashes (repeats and all), sorted: only when there are more than ``KeyWindow/capacity``
    /// of them; otherwise empty and the newer page is `tail`'s last `newerCount`.
    private var newerSorted: [UInt64] = []
    private var newerCount = 0
    /// The walk's hash key.
    private let hasher: SipHash
    /// The last hashes recorded, in read order, at most ``KeyWindow/capacity``.
    private var tail: [UInt64] = []

    /// A fresh walk's memory, hashing with `key`.
    init(key: WalkHashKey = .random()) { hasher = key.hasher }

    /// The hash key keys are hashed with.
    var hashKey: WalkHashKey { WalkHashKey(hasher: hasher) }

    /// The memory of a walk resumed from `window`: its keys count as the page just read.
    init(resuming window: KeyWindow) {
        hasher = window.hasher
        tail = window.hashes
        newerCount = window.hashes.count
    }

    /// The number of hashes held (at most two pages' keys).
    var count: Int { older.count + newerCount }

    /// The hashes stored, counted by the arrays' capacities (for tests of the memory bound).
    var storedHashes: Int { older.capacity + newerSorted.capacity + tail.capacity }

    /// What a resume token carries: the hash key and the last keys read.
    var window: KeyWindow { KeyWindow(hasher: hasher, hashes: tail) }

    /// Whether `hash` is among the keys of the last two pages.
    func contains(_ hash: UInt64) -> Bool {
        if Self.search(older[...], hash) { return true }
        if newerCount > KeyWindow.capacity { return Self.search(newerSorted[...], hash) }
        return tail.suffix(newerCount).contains(hash)   // at most capacity (64) hashes
    }

    /// Records the keys of the page just read (`pageHashes`, repeats and all, in read order): it becomes the
    /// newer page, the newer becomes the older, the older is forgotten.
    mutating func record(page pageHashes: [UInt64]) {
        older = newerCount > KeyWindow.capacity ? newerSorted : newerCount == 0 ? [] : tail.suffix(newerCount).sorted()
        newerCount = pageHashes.count
        newerSorted = newerCount > KeyWindow.capacity ? pageHashes.sorted() : []
        let kept = min(tail.count, KeyWindow.capacity - min(pageHashes.count, KeyWindow.capacity))
        if kept == 0, pageHashes.count <= KeyWindow.capacity {
            // The page's own array, shared: every walk that read this page (a storm's viewers of the first page, whose
            // hashes ``PageKeyHashes`` keeps) holds the one array, none a copy.
            tail = pageHashes
            return
        }
        // A new array of the window's size (appending would keep the grown capacity of two pages).
        var next: [UInt64] = []
        next.reserveCapacity(kept + min(pageHashes.count, KeyWindow.capacity))
        next.append(contentsOf: tail.suffix(kept))
        next.append(contentsOf: pageHashes.suffix(KeyWindow.capacity))
        tail = next
    }

    /// The hash of one key under this walk's hash key: of its JSON serialization, so `1` and `"1"` differ.
    func hash(_ key: JSONValue) -> UInt64 {
        key.serialized().withUnsafeBytes { hasher.hash($0) }
    }

    /// The hash of a cursor string (loop detection, within one process).
    static func hash(_ text: String) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(text)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// Binary search of a sorted slice.
    private static func search(_ sorted: ArraySlice<UInt64>, _ hash: UInt64) -> Bool {
        var low = sorted.startIndex, high = sorted.endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if sorted[middle] < hash { low = middle + 1 } else { high = middle }
        }
        return low < sorted.endIndex && sorted[low] == hash
    }
}
