import HTTPServer
import Metrics

/// The server's metrics, registered once in one registry (no globals); `/metrics` renders the registry.
/// Thread-safe: counters and gauges are atomic.
struct ServerMetrics: Sendable {
    let registry: MetricsRegistry
    let batchesSent: Counter
    let sessionsOpened: Counter
    /// Demands handed to another instance (``DemandRelay``), by what it answered.
    private let relayedDemands: [RelayedAnswer: Counter]
    /// Each table's histograms, by table name, registered at start (so `/metrics` lists them before any batch).
    private let tables: [String: TableMetrics]

    init(registry: MetricsRegistry, tables: [String]) {
        self.registry = registry
        batchesSent = registry.counter("rowstream_batches_sent_total", help: "Batches of rows sent to viewers.")
        sessionsOpened = registry.counter("rowstream_sessions_opened_total", help: "Viewer streams opened.")
        let outcomes: [(RelayedAnswer, String)] = [(.accepted, "accepted"), (.ended, "ended"), (.otherTable, "other_table"),
                                                   (.badChoice, "bad_choice"), (.unreachable, "unreachable")]
        relayedDemands = Dictionary(uniqueKeysWithValues: outcomes.map { answer, label in
            (answer, registry.counter("rowstream_demands_forwarded_total",
                                      help: "Demands (next, reload) for a session another instance holds, handed to it through the shared store, by its answer (ended: gone or no answer in time; unreachable: the store).",
                                      labels: ["outcome": label]))
        })
        self.tables = Dictionary(uniqueKeysWithValues: tables.map { ($0, TableMetrics(registry: registry, table: $0)) })
    }

    /// Counts a demand handed to another instance, by its answer.
    func relayed(_ answer: RelayedAnswer) { relayedDemands[answer]?.increment() }

    /// `table`'s histograms (made on first use for a table not known at start).
    func table(_ table: String) -> TableMetrics {
        tables[table] ?? TableMetrics(registry: registry, table: table)
    }

    /// Connection and stream gauges, and the server's running totals as counters, read at render time.
    /// `statistics` must read the server through a weak reference: the server's responder owns this registry, so a
    /// strong one would be a cycle and the whole server would never be freed (found by LeakSanitizer). It returns
    /// nil (gauges and totals read 0) in-process or once the server is gone.
    func observe(
        statistics stats: @escaping @Sendable () -> HTTPServerStatistics?, sessions: SessionRegistry, feeds: [LiveFeed],
        partitions: [String: LivePartitions] = [:]
    ) {
        registry.gaugeFunction("rowstream_connections_open", help: "Open client connections.") {
            Double(stats()?.openConnections ?? 0)
        }
        registry.counterFunction("rowstream_connections_accepted_total", help: "Client connections accepted.") {
            stats()?.totalConnections ?? 0
        }
        registry.gaugeFunction("rowstream_streams_open", help: "Open event streams.") {
            Double(stats()?.openStreams ?? 0)
        }
        registry.counterFunction("rowstream_http_requests_total", help: "HTTP requests handled.") {
            stats()?.totalRequests ?? 0
        }
        registry.counterFunction(
            "rowstream_slow_consumers_dropped_total", help: "Connections dropped for not reading."
        ) {
            stats()?.droppedSlowConsumers ?? 0
        }
        registry.counterFunction(
            "rowstream_sends_coalesced_total", help: "Stream writes sent in one send with an earlier one."
        ) {
            stats()?.sendsCoalesced ?? 0
        }
        registry.counterFunction(
            "rowstream_arrival_pauses_total", help: "Pauses of the accepting loop while connections arrived as a storm."
        ) {
            stats()?.arrivalPauses ?? 0
        }
        registry.counterFunction("rowstream_connections_refused_total", help: "Connections refused (503) at a cap.") {
            stats()?.refusedConnections ?? 0
        }
        registry.gaugeFunction("rowstream_sessions_open", help: "Viewer sessions open.") {
            Double(sessions.count)
        }
        registry.gaugeFunction("rowstream_live_refresh_waiting", help: "Callers waiting for a live table's refresh.") {
            Double(feeds.reduce(0) { $0 + $1.waitingCount })
        }
        // A live table that forwards the viewer: its feeds running, one per identity with viewers here, and its cap
        // (`live.maxPartitions`; past it a new identity's stream is a 503).
        for (table, partitioned) in partitions {
            registry.gaugeFunction("rowstream_live_partitions", help: "Live feeds running for a forwarding table's identities.",
                                   labels: ["table": table]) { Double(partitioned.count) }
            registry.gaugeFunction("rowstream_live_partitions_max", help: "Most live feeds a forwarding table runs at once.",
                                   labels: ["table": table]) { Double(partitioned.capacity) }
        }
        observeCluster(feeds: feeds.filter { $0.channel != nil })
    }

    /// Live tables in a cluster (docs/SCALING.md, "Live tables across instances"); none without one.
    private func observeCluster(feeds: [LiveFeed]) {
        guard !feeds.isEmpty else { return }
        registry.gaugeFunction("rowstream_live_leases_held", help: "Live tables this instance refreshes for the cluster.") {
            Double(feeds.count(where: \.holdsLease))
        }
        registry.gaugeFunction(
            "rowstream_live_tables_alone", help: "Live tables refreshed by this instance alone (the shared store unreachable)."
        ) {
            Double(feeds.count { !$0.isSharing })
        }
        registry.counterFunction(
            "rowstream_live_alone_refreshes_total", help: "Live refreshes run alone while the shared store was unreachable."
        ) {
            feeds.reduce(0) { $0 + $1.counters.aloneRefreshes.load(ordering: .relaxed) }
        }
        registry.counterFunction(
            "rowstream_live_resyncs_total", help: "Live heads applied after a gap in the shared log (re-synced whole)."
        ) {
            feeds.reduce(0) { $0 + $1.counters.resyncs.load(ordering: .relaxed) }
        }
        registry.counterFunction(
            "rowstream_live_refresh_cluster_refused_total", help: "Live refreshes refused (429) by the table's one refresh bucket for the cluster."
        ) {
            feeds.reduce(0) { $0 + $1.counters.clusterRefusals.load(ordering: .relaxed) }
        }
        registry.counterFunction(
            "rowstream_live_refresh_local_limit_total",
            help: "Live refreshes rate-limited by this instance's own bucket because the cluster's could not answer (Redis down)."
        ) {
            feeds.reduce(0) { $0 + $1.counters.localLimitFallbacks.load(ordering: .relaxed) }
        }
    }
}
