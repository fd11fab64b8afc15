/// A page cache's second level: the pages of one table (one query choice) in a ``SharedPageStore`` all instances of
/// a cluster use, with cluster-wide single-flight. See ``load(_:ttl:load:)`` and docs/SCALING.md.
///
/// A plain value: thread-safe (the store is).
public struct SharedPages: Sendable {
    /// What happened to one page request that reached the shared level (for metrics).
    public enum Event: String, Sendable, CaseIterable {
        /// Found in the store: no upstream fetch.
        case hit
        /// Not in the store: this instance fetched it, or waited for the instance that did.
        case miss
        /// Another instance held the fetch lease: this one waited for its landing.
        case leaseWait = "lease_wait"
        /// The store was unavailable or failed: fetched with local coalescing only.
        case fallback
        /// A value in the store was not a page (corrupt, another format, too large): treated as a miss.
        case rejected
        /// A value in the store was not bound to its key by this cluster's sealing key (copied from another key,
        /// forged, or written under another key): treated as a miss, never read.
        case unverified
        /// A fetched page was larger than ``SharedPages/maxValueBytes``: kept in local memory only.
        case tooLarge = "too_large"
    }

    /// Where the pages are shared.
    public let store: any SharedPageStore
    /// Their names in the store.
    public var keys: SharedPageKeys
    /// How long a fetch lease lasts unless its holder renews it (every third of it while fetching): an instance
    /// that dies holding one holds up the others this long at most.
    public var leaseTime: Duration = defaultLeaseTime
    /// ``leaseTime``'s default: 15 s.
    public static let defaultLeaseTime: Duration = .seconds(15)
    /// The longest an instance waits for another's fetch (renewed leases included) before it fetches itself.
    public var maxWait: Duration = .seconds(60)
    /// The largest value stored or read; a larger page stays in local memory.
    public var maxValueBytes = 1 << 20
    /// How long a page stays in the store when the cache keeps none (TTL 0): long enough for the instances that
    /// waited for it to read it.
    public var handOverTime: Duration = .seconds(1)
    /// Whether pages are shared whatever the upstream's origin (scheme, host, port) in their requests: only for
    /// upstreams that serve the same data on a different address per instance (the built-in demo upstream).
    public var ignoresOrigin = false
    /// Told of each ``Event``; must be quick (counters).
    public var observer: @Sendable (Event) -> Void

    public init(store: any SharedPageStore, keys: SharedPageKeys,
                observer: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.store = store
        self.keys = keys
        self.observer = observer
    }
}
