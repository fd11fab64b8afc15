import Metrics
import Redis
import RowstreamKit
import Sealing
import Synchronization
import Upstream

/// This instance's part of a cluster (docs/SCALING.md): the page store all instances share, the shared level it
/// gives every table's cache (``sharedPages(table:ignoresOrigin:)``), the live tables' leases and logs (`live`), its
/// counters in `/metrics`, and its health: the gauge `rowstream_redis_up`, and one log line per change (up to down,
/// down to up). Every key it names and every page value it writes is keyed and bound by ``storeKey`` (the operator's
/// sealing key's: docs/SCALING.md, "A Redis you cannot trust"); a value that fails is a miss, logged at most once a
/// minute.
///
/// Thread-safe: immutable.
final class SharedCluster: Sendable {
    let store: any SharedPageStore
    /// The live tables' refresher leases and change logs (nil: each instance refreshes its live tables alone).
    let live: (any LiveCluster)?
    /// Hands demands for another instance's sessions to it (nil: such a demand is answered `ended`).
    let relay: (any DemandRelay)?
    /// Names the pages' keys and binds their values to them (``SealingKeys/storeKey``).
    let storeKey: StoreKey
    /// How long a page's fetch lease lasts unless renewed (``SharedPages/leaseTime``).
    let leaseTime: Duration
    private let observer: @Sendable (SharedPages.Event) -> Void
    private let stop: @Sendable () async -> Void

    init(store: any SharedPageStore, live: (any LiveCluster)? = nil, relay: (any DemandRelay)? = nil,
         storeKey: StoreKey, leaseTime: Duration = SharedPages.defaultLeaseTime, registry: MetricsRegistry,
         logger: (any RowstreamLogger)? = nil, stop: @escaping @Sendable () async -> Void = {}) {
        self.store = store
        self.live = live
        self.relay = relay
        self.storeKey = storeKey
        self.leaseTime = leaseTime
        self.stop = stop
        let count = DashboardMetrics.sharedPagesObserver(registry: registry)
        let refusals = logger.map { RateLimitedLog(logger: $0, every: .seconds(60)) }
        observer = { event in
            count(event)
            if event == .unverified {
                refusals?.log(.warning, "redis: a shared page's value did not verify (copied from another key, forged, "
                    + "or written under another sealing key): read as a miss (rowstream_shared_unverified_values_total)")
            }
        }
        registry.gaugeFunction("rowstream_redis_up", help: "Whether the shared store (Redis) is reachable: 1 up, 0 down.") {
            store.isAvailable ? 1 : 0
        }
    }

    /// The cluster through the Redis at `url`, its keys and values keyed by `keys` (the operator's sealing keys:
    /// random ones share nothing with another instance, which is logged). Connects in the background: a Redis that is
    /// down at start is the same as one that goes down later (this instance serves alone, and shares once it is up).
    /// `tag`: the instance's (``ServerConfiguration/instanceTag``), the first byte of its relay's id.
    static func connect(_ url: RedisURL, keys: SealingKeys, commandTimeout: Duration,
                        leaseTime: Duration = SharedPages.defaultLeaseTime, tag: UInt8? = nil,
                        registry: MetricsRegistry, logger: any RowstreamLogger) throws -> SharedCluster {
        let address: RedisAddress = switch url.address {
        case .tcp(let host, let port): .tcp(host: host, port: port)
        case .unix(let path): .unix(path: path)
        }
        var limits = RESPLimits()
        limits.maxBulkBytes = 4 << 20   // pages are capped at 1 MiB (SharedPages.maxValueBytes): a larger value is refused unread
        let configuration = RedisConfiguration(address: address, commandTimeout: commandTimeout, limits: limits,
                                               password: url.password, database: url.database)
        let client: RedisClient
        do { client = try RedisClient(configuration: configuration) } catch {
            throw DashboardError.redis(url, error)
        }
        let health = HealthLog(logger: logger, name: url.description)
        let store = RedisPageStore(client: client) { health.report(up: $0) }
        DashboardMetrics.redisStatistics(registry: registry) { client.statistics }
        if keys.isEphemeral {
            logger.log(.warning, "--redis without a sealing key: this instance keys what it writes to Redis with a "
                + "random key of its own, so it shares no page with the other instances; give every instance the same "
                + "key file (--secret-file, ROWSTREAM_SECRET_FILE or the config's secretFile; docs/SCALING.md)")
        }
        let live = RedisLiveCluster(client: client, storeKey: keys.storeKey)
        registry.counterFunction("rowstream_live_unverified_rows_total",
                                 help: "Live heads and log entries in Redis whose rows did not verify (forged, or another table's): read as none.") {
            live.unverified.load(ordering: .relaxed)
        }
        // A forwarded demand waits for the owner's answer at least 2 s (longer if Redis calls may take longer): the
        // answer is two PUBLISHes and a turn of a possibly busy owner, and a false `ended` costs the viewer a whole
        // reconnect, while an owner that is gone is known at once (its channel has no subscriber).
        let relay = RedisDemandRelay(client: client, storeKey: keys.storeKey, tag: tag,
                                     budget: max(commandTimeout, RedisDemandRelay.leastBudget))
        registry.counterFunction("rowstream_demands_unverified_total",
                                 help: "Relayed demands and answers in Redis that did not verify (forged or altered): dropped.") {
            relay.unverified
        }
        return SharedCluster(store: store, live: live, relay: relay, storeKey: keys.storeKey, leaseTime: leaseTime,
                             registry: registry, logger: logger) {
            await relay.stop()
            await store.shutdown()
        }
    }

    /// The shared level of a cache of `table` (keyed by the source's requests once the source takes the cache:
    /// ``PageSource/caching(in:)``). `ignoresOrigin`: see ``SharedPages/ignoresOrigin``.
    func sharedPages(table: String, ignoresOrigin: Bool = false) -> SharedPages {
        var shared = SharedPages(store: store, keys: SharedPageKeys(table: table, scope: [], storeKey: storeKey),
                                 observer: observer)
        shared.ignoresOrigin = ignoresOrigin
        shared.leaseTime = leaseTime
        return shared
    }

    /// Closes the store's connections.
    func shutdown() async {
        await stop()
    }
}

/// Logs a shared store's health changes, once each: up to down (a warning) and down to up. The first report logs
/// only a store that is down (up at start is the normal case).
///
/// Thread-safe: the last state is atomic.
final class HealthLog: Sendable {
    private let logger: any RowstreamLogger
    private let name: String
    /// -1 unknown, 0 down, 1 up.
    private let last = Atomic<Int>(-1)

    init(logger: any RowstreamLogger, name: String) {
        self.logger = logger
        self.name = name
    }

    func report(up: Bool) {
        let previous = last.exchange(up ? 1 : 0, ordering: .acquiringAndReleasing)
        guard previous != (up ? 1 : 0), previous != -1 || !up else { return }
        logger.log(up ? .info : .warning, up
            ? "redis \(name) is up: pages are shared with the other instances again"
            : "redis \(name) is down: serving from this instance's own cache and coalescing until it returns")
    }
}
