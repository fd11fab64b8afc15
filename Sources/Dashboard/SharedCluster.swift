import Metrics
import RowstreamKit
import Synchronization
import Upstream

/// This instance's part of a cluster (docs/SCALING.md): the page store all instances share, the shared level it
/// gives every table's cache (``pages(table:ignoresOrigin:)``), its counters in `/metrics`, and its health: the
/// gauge `rowstream_redis_up`, and one log line per change (up to down, down to up).
///
/// Thread-safe: immutable but for the last reported health (atomic).
final class SharedCluster: Sendable {
    let store: any SharedPageStore
    private let observer: @Sendable (SharedPages.Event) -> Void
    private let logger: any RowstreamLogger
    /// The last health reported: -1 unknown, 0 down, 1 up.
    private let health = Atomic<Int>(-1)

    init(store: any SharedPageStore, registry: MetricsRegistry, logger: any RowstreamLogger) {
        self.store = store
        self.logger = logger
        observer = DashboardMetrics.sharedPagesObserver(registry: registry)
        registry.gaugeFunction("rowstream_redis_up", help: "Whether the shared store (Redis) is reachable: 1 up, 0 down.") {
            store.isAvailable ? 1 : 0
        }
    }

    /// The shared level of a cache of `table` (keyed by the source's requests once the source takes the cache:
    /// ``PageSource/caching(in:)``). `ignoresOrigin`: see ``SharedPages/ignoresOrigin``.
    func pages(table: String, ignoresOrigin: Bool = false) -> SharedPages {
        var shared = SharedPages(store: store, keys: SharedPageKeys(table: table, scope: []), observer: observer)
        shared.ignoresOrigin = ignoresOrigin
        return shared
    }

    /// Reports the store's health: logs and counts a change once (the first report logs only a failure: a store
    /// that is up at start is the normal case). May be called from any thread.
    func healthChanged(up: Bool, store name: String) {
        let previous = health.exchange(up ? 1 : 0, ordering: .acquiringAndReleasing)
        guard previous != (up ? 1 : 0), previous != -1 || !up else { return }
        logger.log(up ? .info : .warning, up
            ? "redis \(name) is up: pages are shared with the other instances again"
            : "redis \(name) is down: serving from this instance's own cache and coalescing until it returns")
    }
}
