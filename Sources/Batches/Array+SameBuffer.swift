extension Array {
    /// True if this array and `other` are one buffer: two live non-empty arrays at one address share it, so their
    /// elements are the same. The shared-batch caches (RowstreamKit) and the walks' page key hashes (Upstream) key on
    /// it, holding the array they compare against.
    package func isSameBuffer(as other: [Element]) -> Bool {
        guard count == other.count, !isEmpty else { return false }
        return withUnsafeBufferPointer { mine in
            other.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
        }
    }
}
