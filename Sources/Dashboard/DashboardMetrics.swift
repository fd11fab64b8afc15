import Metrics
import Redis
import Upstream

/// The dashboard's own metrics (the upstream client's), registered in the registry the server's `/metrics`
/// renders (no globals). Thread-safe: counters and histograms are atomic.
enum DashboardMetrics {
    /// Upstream requests by outcome and their latency, fed by the upstream client's worker thread.
    static func upstreamObserver(registry: MetricsRegistry) -> UpstreamObserver {
        let latency = registry.histogram(
            "rowstream_upstream_request_duration_seconds",
            help: "Upstream request latency, from submission to the last byte."
        )
        let counters = Dictionary(uniqueKeysWithValues: UpstreamObserver.Outcome.allCases.map { outcome in
            (outcome.rawValue, registry.counter(
                "rowstream_upstream_requests_total",
                help: "Upstream requests by outcome.",
                labels: ["outcome": outcome.rawValue]
            ))
        })
        let other = registry.counter(
            "rowstream_upstream_requests_total", help: "Upstream requests by outcome.", labels: ["outcome": "other"]
        )
        return UpstreamObserver { outcome, seconds in
            (counters[outcome] ?? other).increment()
            latency.observe(seconds)
        }
    }

    /// The shared page cache's events as counters: `rowstream_shared_pages_total{outcome}` for requests that
    /// reached the shared level (`hit`, `miss`, `fallback`: the store was down or failing), and the lease waits,
    /// rejected and unverified values and pages too large to share.
    static func sharedPagesObserver(registry: MetricsRegistry) -> @Sendable (SharedPages.Event) -> Void {
        let counters = Dictionary(uniqueKeysWithValues: SharedPages.Event.allCases.map { event -> (SharedPages.Event, Counter) in
            let counter: Counter = switch event {
            case .hit, .miss, .fallback:
                registry.counter("rowstream_shared_pages_total",
                                 help: "Page requests that reached the shared cache, by outcome (fallback: Redis down or failing).",
                                 labels: ["outcome": event.rawValue])
            case .leaseWait:
                registry.counter("rowstream_shared_lease_waits_total",
                                 help: "Shared page fetches waited for because another instance held the lease.")
            case .rejected:
                registry.counter("rowstream_shared_rejected_values_total",
                                 help: "Values in the shared cache that were not a valid page (treated as misses).")
            case .unverified:
                registry.counter("rowstream_shared_unverified_values_total",
                                 help: "Values in the shared cache whose tag did not verify (moved from another key, forged, or under another sealing key): treated as misses.")
            case .tooLarge:
                registry.counter("rowstream_shared_too_large_total",
                                 help: "Pages larger than the shared cache's value cap (kept in local memory only).")
            }
            return (event, counter)
        })
        return { event in counters[event]?.increment() }
    }

    /// The Redis client's connection counts (`rowstream_redis_*_total`), read at render time.
    static func redisStatistics(registry: MetricsRegistry, _ read: @escaping @Sendable () -> RedisStatistics) {
        registry.counterFunction("rowstream_redis_connections_opened_total", help: "Connections to Redis established.") {
            read().connectionsOpened
        }
        registry.counterFunction("rowstream_redis_connections_lost_total", help: "Connections to Redis that broke.") {
            read().connectionsLost
        }
        registry.counterFunction("rowstream_redis_connect_failures_total", help: "Failed attempts to connect to Redis.") {
            read().connectFailures
        }
        registry.counterFunction("rowstream_redis_command_timeouts_total", help: "Redis commands that got no reply in time.") {
            read().commandsTimedOut
        }
    }
}
