import Metrics
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
}
