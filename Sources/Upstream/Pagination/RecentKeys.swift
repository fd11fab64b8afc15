import JSON

/// The item keys of the last two pages one walk read, as 64-bit hashes: what ``PageWalker`` deduplicates against.
///
/// Bounded: at most two pages' worth of 8-byte hashes in one array (the older page's sorted, then the newer
/// page's sorted), whatever the number of pages read, plus the last ``KeyWindow/capacity`` hashes in read order
/// (the ``window`` a resume token carries). Offset pagination repeats items when rows are inserted above the
/// reader: the next page then starts with the end of the page before it, which is what this keeps. An item last
/// seen three or more pages back is not recognised. Keys are hashed with SipHash-2-4 under a random key
/// (``KeyWindow``, ``WalkHashKey``: one per table, so walks over the same pages carry equal windows): two different
/// keys share a hash with probability about 2^-64 per pair, and an upstream cannot choose keys that collide (the key
/// never leaves the server unsealed).
///
/// A plain value, confined to its owner (``PageWalker`` keeps it under its lock).
struct RecentKeys {
    /// Both pages' hashes: `hashes[..<olderCount]` (the older page, sorted), then the newer page's (sorted).
    private var hashes: [UInt64] = []
    private var olderCount = 0
    /// The walk's hash key.
    private let hasher: SipHash
    /// The last hashes recorded, in read order, at most ``KeyWindow/capacity``.
    private var tail: [UInt64] = []

    /// A fresh walk's memory, hashing with `key`.
    init(key: WalkHashKey = .random()) { hasher = key.hasher }

    /// The memory of a walk resumed from `window`: its keys count as the page just read.
    init(resuming window: KeyWindow) {
        hasher = window.hasher
        hashes = window.hashes.sorted()
        tail = window.hashes
    }

    /// The number of hashes held (at most two pages' keys).
    var count: Int { hashes.count }

    /// What a resume token carries: the hash key and the last keys read.
    var window: KeyWindow { KeyWindow(hasher: hasher, hashes: tail) }

    /// Whether `hash` is among the keys of the last two pages.
    func contains(_ hash: UInt64) -> Bool {
        Self.search(hashes[..<olderCount], hash) || Self.search(hashes[olderCount...], hash)
    }

    /// Records the keys of the page just read (`pageHashes`, repeats and all, in read order): it becomes the
    /// newer page, the newer becomes the older, the older is forgotten.
    mutating func record(page pageHashes: [UInt64]) {
        let newer = hashes[olderCount...]
        var next: [UInt64] = []
        next.reserveCapacity(newer.count + pageHashes.count)
        next.append(contentsOf: newer)
        next.append(contentsOf: pageHashes.sorted())
        olderCount = newer.count
        hashes = next
        tail.append(contentsOf: pageHashes.suffix(KeyWindow.capacity))
        if tail.count > KeyWindow.capacity { tail.removeFirst(tail.count - KeyWindow.capacity) }
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
