/// An array kept as a cache's key by the identity of its buffer, never by its content: the contract of the caches
/// that let viewers share what was made from one batch (``RecentBatches``: rows and sealed positions;
/// ``SharedBatchBodies``: rendered `rows` events).
///
/// The contract: the entry holds the array (this value), so its buffer cannot be freed and its address reused while
/// the entry lives; another live, non-empty array of the same count at the same address is then that very buffer,
/// and its elements are the ones the entry was made from. Arrays get one buffer only by being copies of one another
/// (a page the page cache serves to every walk, untouched by the walk's dedup: ``PageWalker``), so a hit shares only
/// what the cache would have served anyway. Comparing costs one pointer comparison, never the elements.
///
/// Thread-safe: an immutable value (a copy of the array shares its buffer).
struct HeldBuffer<Element> {
    /// The array held (its elements are what the entry was made from).
    let array: [Element]

    init(_ array: [Element]) {
        self.array = array
    }

    /// True if `other` is this very buffer: both non-empty, of one count, at one address.
    func holds(_ other: [Element]) -> Bool {
        guard array.count == other.count, !array.isEmpty else { return false }
        return array.withUnsafeBufferPointer { mine in
            other.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
        }
    }
}

extension HeldBuffer: Sendable where Element: Sendable {}
