/// One page's item keys as a walk deduplicates with them: each item's key hash (nil: the item has no key), the
/// hashes of the items that have one in read order (repeats and all: what ``RecentKeys`` records), and which items
/// repeat a key that came earlier on the same page (a walk always drops those).
///
/// The page's own repeats depend on the page alone, so they are found once per page (``PageKeyHashes`` keeps them
/// for the table's walks): a walk that starts with the page drops exactly these, and builds no set of its keys.
///
/// A value; thread-safe.
struct PageKeys: Sendable, Equatable {
    /// Each item's key hash, in page order (nil: no key).
    let hashes: [UInt64?]
    /// The non-nil hashes, in page order.
    let keyed: [UInt64]
    /// The indices, ascending, of the items whose key came earlier on the page.
    let repeats: [Int]

    init(hashes: [UInt64?]) {
        self.hashes = hashes
        var keyed: [UInt64] = []
        keyed.reserveCapacity(hashes.count)
        var seen = Set<UInt64>(minimumCapacity: hashes.count)
        var repeats: [Int] = []
        for (index, hash) in hashes.enumerated() {
            guard let hash else { continue }
            keyed.append(hash)
            if !seen.insert(hash).inserted { repeats.append(index) }
        }
        self.keyed = keyed
        self.repeats = repeats
    }

    /// The indices, ascending, of the items a walk whose memory is `recent` drops: the page's own repeats, and the
    /// items whose key was on the last two pages read.
    func dropped(after recent: RecentKeys) -> [Int] {
        guard recent.count > 0 else { return repeats }
        var dropped: [Int] = []
        var nextRepeat = repeats.startIndex
        for (index, hash) in hashes.enumerated() {
            if nextRepeat < repeats.endIndex, repeats[nextRepeat] == index {
                dropped.append(index)
                nextRepeat += 1
            } else if let hash, recent.contains(hash) {
                dropped.append(index)
            }
        }
        return dropped
    }
}
