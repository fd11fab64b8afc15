import HTTPServer
import Metrics

/// The server's metrics, registered once in one registry (no globals); `/metrics` renders the registry.
/// Thread-safe: counters and gauges are atomic.
struct ServerMetrics: Sendable {
    let registry: MetricsRegistry
    let batchesSent: Counter
    let sessionsOpened: Counter

    init(registry: MetricsRegistry) {
        self.registry = registry
        batchesSent = registry.counter("rowstream_batches_sent_total", help: "Batches of rows sent to viewers.")
        sessionsOpened = registry.counter("rowstream_sessions_opened_total", help: "Viewer streams opened.")
    }

    /// Connection and stream gauges read from the server at render time.
    func observe(server: HTTPServer, sessions: SessionRegistry) {
        registry.gaugeFunction("rowstream_connections_open", help: "Open client connections.") {
            Double(server.statistics.openConnections)
        }
        registry.gaugeFunction("rowstream_connections_accepted_total", help: "Client connections accepted.") {
            Double(server.statistics.totalConnections)
        }
        registry.gaugeFunction("rowstream_streams_open", help: "Open event streams.") {
            Double(server.statistics.openStreams)
        }
        registry.gaugeFunction("rowstream_http_requests_total", help: "HTTP requests handled.") {
            Double(server.statistics.totalRequests)
        }
        registry.gaugeFunction("rowstream_slow_consumers_dropped_total", help: "Connections dropped for not reading.") {
            Double(server.statistics.droppedSlowConsumers)
        }
        registry.gaugeFunction("rowstream_sessions_open", help: "Viewer sessions open.") {
            Double(sessions.count)
        }
    }
}
