/// The random key a walk hashes item keys with for its dedup memory (``RecentKeys``, ``KeyWindow``). One per table
/// and process: every walk of the table reads the same pages into the same window, so viewers who read the same
/// page get equal positions, sealed once and shared (RowstreamKit's `RecentBatches`). It never leaves the server
/// unsealed (a position carries it inside the sealed resume token), so an upstream cannot choose keys that collide.
///
/// Thread-safe: a value type.
public struct WalkHashKey: Sendable, Equatable {
    let hasher: SipHash

    /// A fresh random key.
    public static func random() -> WalkHashKey { WalkHashKey(hasher: .random()) }
}
