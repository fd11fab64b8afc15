import Access
import HTTPServer
import Metrics

/// Serves one or more ``TableBinding``s: each table's page at `/tables/NAME` (the first also at `/`), its event
/// stream, demand, reload, the no-script page and row refetch (docs/PROTOCOL.md), plus `/api/tables`,
/// `/healthz`, `/metrics` and the page's static files.
///
/// ```swift
/// let server = try RowstreamServer.start([people, orders])
/// print("serving http://127.0.0.1:\(server.port)/")
/// server.waitUntilShutdown()
/// ```
///
/// Thread-safe: ``shutdown()`` and ``waitUntilShutdown()`` may be called from any thread (a signal handler's
/// queue, a test). Ownership: the server owns its event-loop threads; shutdown ends every open stream, which
/// cancels each viewer's load in flight.
public final class RowstreamServer: Sendable {
    /// The port the server listens on (the chosen one when configured with port 0).
    public let port: Int
    /// The routes the server answers with; an in-process server (``inProcess(_:pages:configuration:registry:)``)
    /// has only these.
    package let responder: any HTTPResponder
    /// The listening server; nil in-process.
    private let server: HTTPServer?
    /// The live tables' feeds (``LiveUpdates``), stopped at shutdown.
    private let feeds: LiveFeeds
    /// Every viewer stream's `heartbeat` events, stopped at shutdown.
    private let heartbeats: StreamHeartbeat

    private init(port: Int, responder: any HTTPResponder, server: HTTPServer?, feeds: LiveFeeds, heartbeats: StreamHeartbeat) {
        self.responder = responder
        self.feeds = feeds
        self.heartbeats = heartbeats
        self.port = port
        self.server = server
    }

    /// Starts serving `bindings` (and `pages`, several tables on one page over one stream: ``DashboardPage``) and
    /// returns once the server accepts connections. Throws a ``RowstreamError`` for no tables, a bad or repeated
    /// table or page name, a page naming an unknown table, a bad batch size, a `publicDirectory` without the page
    /// templates, or an address it cannot listen on.
    ///
    /// ```swift
    /// var configuration = ServerConfiguration()
    /// configuration.port = 0
    /// let server = try RowstreamServer.start([binding], configuration: configuration)
    /// defer { server.shutdown() }
    /// ```
    public static func start(
        _ bindings: [TableBinding], pages: [DashboardPage] = [], configuration: ServerConfiguration = ServerConfiguration()
    ) throws -> RowstreamServer {
        try start(bindings, pages: pages, configuration: configuration, registry: MetricsRegistry())
    }

    /// `start(_:configuration:)` with the metrics registry `/metrics` renders, for a caller that registers
    /// metrics of its own (the dashboard's upstream client).
    package static func start(
        _ bindings: [TableBinding], pages: [DashboardPage] = [], configuration: ServerConfiguration,
        registry: MetricsRegistry
    ) throws -> RowstreamServer {
        try make(bindings, pages: pages, configuration: configuration, registry: registry, listen: true)
    }

    /// The same server with no socket: its ``responder`` answers requests in-process (RowstreamTesting), its live
    /// feeds and heartbeats run as when listening; ``port`` is 0 and the connection metrics stay 0.
    package static func inProcess(
        _ bindings: [TableBinding], pages: [DashboardPage] = [], configuration: ServerConfiguration,
        registry: MetricsRegistry = MetricsRegistry()
    ) throws -> RowstreamServer {
        try make(bindings, pages: pages, configuration: configuration, registry: registry, listen: false)
    }

    private static func make(
        _ bindings: [TableBinding], pages: [DashboardPage], configuration: ServerConfiguration,
        registry: MetricsRegistry, listen: Bool
    ) throws -> RowstreamServer {
        try validate(bindings)
        for source in configuration.frameAncestors where !SecurityHeaders.isValidFrameAncestor(source) {
            throw RowstreamError.frameAncestor(source)
        }
        for origin in configuration.allowedOrigins where SameOriginRule.normalizedOrigin(origin) == nil {
            throw RowstreamError.allowedOrigin(origin)
        }
        let bindings = bindings.map { $0.sealing(with: configuration.sealingKeys) }
        let tables = Dictionary(uniqueKeysWithValues: bindings.map { ($0.name, $0) })
        let resolved = try DashboardPage.resolve(pages, tables: tables)
        let accessMode = try configuration.access.validated(
            host: listen ? configuration.host : nil, tables: Set(tables.keys), pages: Set(pages.map(\.name)))
        let metrics = ServerMetrics(registry: registry, tables: bindings.map(\.name))
        let template = try DocumentTemplate(directory: configuration.publicDirectory)
        let staticFiles: StaticFiles
        do {
            staticFiles = try StaticFiles(root: configuration.publicDirectory)
        } catch {
            throw RowstreamError.publicDirectory(configuration.publicDirectory, error)
        }
        let sessions = SessionRegistry(instanceTag: configuration.instanceTag,
                                       instance: configuration.demandRelay?.instance)
        let feeds = LiveFeeds(bindings, channel: { name in configuration.liveCluster?.channel(table: name) },
                              logger: configuration.logger)
        let heartbeats = StreamHeartbeat(commentInterval: configuration.heartbeatInterval)
        let routes = ServerRoutes(
            tables: tables,
            order: bindings.map(\.name),
            tableDocuments: Dictionary(uniqueKeysWithValues: bindings.map { table in
                (table.name, template.render(table, pages: pages.filter { page in
                    configuration.access.pageFollowsTable(page: page.name, showing: page.tables, table: table.name)
                }))
            }),
            dashboardPages: DashboardPageSet(resolved, template: try DocumentTemplate.dashboardPageTemplate(
                directory: configuration.publicDirectory, needed: !pages.isEmpty)),
            registry: sessions,
            feeds: feeds,
            metrics: metrics,
            configuration: configuration,
            staticFiles: staticFiles,
            heartbeats: heartbeats
        )
        var serverConfiguration = HTTPServerConfiguration()
        serverConfiguration.host = configuration.host
        serverConfiguration.port = configuration.port
        serverConfiguration.reusePort = configuration.reusePort
        if let ioUring = configuration.ioUring { serverConfiguration.ioUring = ioUring }
        serverConfiguration.heartbeatInterval = configuration.heartbeatInterval
        serverConfiguration.deadPeerTimeout = configuration.deadPeerTimeout
        serverConfiguration.drainWindow = configuration.drainWindow
        serverConfiguration.shutdownGrace = configuration.shutdownGrace
        serverConfiguration.responseTimeout = configuration.responseTimeout
        if let loops = configuration.eventLoopCount { serverConfiguration.eventLoopCount = loops }
        if let cap = configuration.maxConnections { serverConfiguration.maxConnections = cap }
        serverConfiguration.maxConnectionsPerAddress = configuration.maxConnectionsPerAddress
        let access = AccessResponder(inner: routes.router(), configuration: configuration.access, mode: accessMode,
                                     tables: bindings.map(\.name),
                                     pages: Dictionary(uniqueKeysWithValues: pages.map { ($0.name, $0.tables) }),
                                     keys: configuration.sealingKeys)
        let remoteImages = bindings.contains { $0.renderer.spec.grid?.imageField != nil }
        let securityHeaders = SecurityHeaders(frameAncestors: configuration.frameAncestors, remoteImages: remoteImages)
        // The answers the HTTP server makes itself (a malformed request, a timeout, the connection cap) too.
        serverConfiguration.ownAnswerHeaders = securityHeaders.fields
        let responder = GuardedResponder(
            inner: access,
            rule: SameOriginRule(allowedOrigins: configuration.allowedOrigins,
                                 allowsCredentials: configuration.allowCredentials),
            headers: securityHeaders)
        var server: HTTPServer?
        var port = 0
        if listen {
            let listening = HTTPServer(configuration: serverConfiguration, responder: responder)
            do {
                port = try listening.start()
            } catch {
                heartbeats.stop()
                throw RowstreamError.listen(host: configuration.host, port: configuration.port, error)
            }
            server = listening
            if configuration.sealingKeys.isEphemeral { configuration.logger.log(.info, ephemeralKeyNotice) }
        }
        // Weak: the server's responder owns this registry, so a strong reference would be a cycle.
        metrics.observe(statistics: { [weak server] in server?.statistics }, sessions: sessions,
                        feeds: Array(feeds.shared.values), partitions: feeds.partitioned)
        feeds.start()
        configuration.demandRelay?.serve { routes.answer(relayed: $0) }
        return RowstreamServer(port: port, responder: responder, server: server, feeds: feeds, heartbeats: heartbeats)
    }

    /// Said at start by a listening server without configured keys.
    static let ephemeralKeyNotice = "no sealing key configured: resume tokens will not survive a restart nor open on "
        + "another instance (viewers then start over); give every instance the same key file (--secret-file, "
        + "ROWSTREAM_SECRET_FILE or the config's secretFile; docs/SCALING.md)"

    /// Drains: stops accepting, tells every open stream to reconnect within ``ServerConfiguration/drainWindow``
    /// and ends it (cancelling the loads in flight), finishes in-flight responses, within the server's bounded
    /// grace time. Idempotent.
    public func shutdown() {
        feeds.stop()
        server?.shutdown()
        heartbeats.stop()
    }

    /// Blocks the calling thread until ``shutdown()`` has completed. Call it from a thread of your own or the
    /// main thread, never from an `async` context (it would block a thread of the cooperative pool).
    public func waitUntilShutdown() {
        server?.waitUntilShutdown()
    }

    /// A URL path segment: 1-64 of letters, digits, `-` and `_`.
    static func isValidName(_ name: String) -> Bool {
        let allowed = name.utf8.allSatisfy { byte in
            (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 45
                || byte == 95
        }
        return allowed && (1...64).contains(name.utf8.count)
    }

    /// Names are URL path segments: 1-64 of letters, digits, `-` and `_`, each used once; batch sizes 1...500.
    private static func validate(_ bindings: [TableBinding]) throws {
        guard !bindings.isEmpty else { throw RowstreamError.noTables }
        var seen: Set<String> = []
        for binding in bindings {
            let name = binding.name
            guard isValidName(name) else {
                throw RowstreamError.tableName(name)
            }
            guard seen.insert(name).inserted else { throw RowstreamError.duplicateTable(name) }
            guard (1...500).contains(binding.batchSize) else {
                throw RowstreamError.batchSize(table: name, binding.batchSize)
            }
        }
    }
}
