import HTTPServer
import Metrics
import Upstream

/// The dashboard's metrics, registered once in one registry (no globals); `/metrics` renders the registry.
/// Thread-safe: counters and gauges are atomic.
struct DashboardMetrics: Sendable {
    let registry: MetricsRegistry
    let batchesSent: Counter
    let sessionsOpened: Counter

    init(registry: MetricsRegistry) {
        self.registry = registry
        batchesSent = registry.counter("rowstream_batches_sent_total", help: "Batches of rows sent to viewers.")
        sessionsOpened = registry.counter("rowstream_sessions_opened_total", help: "Viewer streams opened.")
    }

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

    /// Connection and stream gauges read from the server at render time.
    /// The server is read through a weak reference: the server's responder owns this registry, so a strong one
    /// would be a cycle and the whole dashboard would never be freed (found by LeakSanitizer).
    func observe(server: HTTPServer, sessions: SessionRegistry) {
        let stats: @Sendable () -> HTTPServerStatistics? = { [weak server] in server?.statistics }
        registry.gaugeFunction("rowstream_connections_open", help: "Open client connections.") {
            Double(stats()?.openConnections ?? 0)
        }
        registry.gaugeFunction("rowstream_connections_accepted_total", help: "Client connections accepted.") {
            Double(stats()?.totalConnections ?? 0)
        }
        registry.gaugeFunction("rowstream_streams_open", help: "Open event streams.") {
            Double(stats()?.openStreams ?? 0)
        }
        registry.gaugeFunction("rowstream_http_requests_total", help: "HTTP requests handled.") {
            Double(stats()?.totalRequests ?? 0)
        }
        registry.gaugeFunction("rowstream_slow_consumers_dropped_total", help: "Connections dropped for not reading.") {
            Double(stats()?.droppedSlowConsumers ?? 0)
        }
        registry.gaugeFunction("rowstream_connections_refused_total", help: "Connections refused (503) at a cap.") {
            Double(stats()?.refusedConnections ?? 0)
        }
        registry.gaugeFunction("rowstream_sessions_open", help: "Viewer sessions open.") {
            Double(sessions.count)
        }
    }
}
