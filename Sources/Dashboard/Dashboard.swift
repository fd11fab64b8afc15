import Foundation
import HTTPServer
import Metrics
import RowstreamKit
import Upstream

/// A running dashboard: the config file's tables (or the demo table over the demo upstream on loopback), served
/// by a `RowstreamServer` - the same public library a code-defined table uses. Start it with `Dashboard.start(_:)`;
/// stop it with `shutdown()`.
///
/// Thread-safe: `shutdown()` and `waitUntilShutdown()` may be called from any thread.
public final class Dashboard: Sendable {
    /// The port the dashboard listens on (useful with port 0).
    public let port: Int
    /// The demo upstream's port on 127.0.0.1.
    public let demoPort: Int
    /// The demo upstream itself (its request count is useful to tests and benchmarks).
    public let demo: DemoUpstream
    private let server: RowstreamServer
    private let demoServer: HTTPServer
    private let client: UpstreamClient
    private let cluster: ClusterStop?

    private init(port: Int, demoPort: Int, demo: DemoUpstream, server: RowstreamServer, demoServer: HTTPServer,
                 client: UpstreamClient, cluster: ClusterStop?) {
        self.port = port
        self.demoPort = demoPort
        self.demo = demo
        self.server = server
        self.demoServer = demoServer
        self.client = client
        self.cluster = cluster
    }

    /// Starts everything and returns once the dashboard accepts connections. Errors name what failed.
    /// With `config`, its tables are served (from their upstreams) instead of the demo table.
    public static func start(_ configuration: DashboardConfiguration, config: ConfigFile? = nil) throws -> Dashboard {
        try make(configuration, config: config, listen: true)
    }

    /// The same dashboard whose own routes answer in-process only (``responder``; ``port`` is 0): for tests. The
    /// demo upstream still listens on 127.0.0.1, as the tables fetch from it.
    package static func inProcess(_ configuration: DashboardConfiguration, config: ConfigFile? = nil) throws -> Dashboard {
        try make(configuration, config: config, listen: false)
    }

    /// The routes the dashboard answers with.
    package var responder: any HTTPResponder { server.responder }

    private static func make(_ configuration: DashboardConfiguration, config: ConfigFile?, listen: Bool) throws
        -> Dashboard
    {
        guard configuration.batchSize >= 1, configuration.batchSize <= 500 else {
            throw DashboardError.batchSize(configuration.batchSize)
        }
        // Several processes on one port serve one viewer's stream and its requests apart: only the relay (Redis)
        // brings them together. (One process alone gains nothing from the flag.)
        if configuration.server.reusePort, configuration.redis ?? config?.redis == nil {
            throw DashboardError.reusePortWithoutRedis
        }
        var configuration = configuration
        configuration.server.sealingKeys = try sealingKeys(configuration, config: config)
        if let sources = configuration.frameAncestors ?? config?.frameAncestors { configuration.server.frameAncestors = sources }
        if let origins = configuration.allowedOrigins ?? config?.allowedOrigins, !origins.isEmpty {
            configuration.server.allowedOrigins = origins
        }
        if let credentials = configuration.allowCredentials ?? config?.allowCredentials {
            configuration.server.allowCredentials = credentials
        }
        if let access = config?.access { configuration.server.access = access }
        if let mode = configuration.accessMode { configuration.server.access.mode = mode }
        configuration.server.responseTimeout = try ResponseTimeout.resolve(
            flag: configuration.responseTimeout, config: config?.responseTimeout, tables: config?.tables ?? [])
        for table in config?.tables ?? [] {
            guard let forward = table.forward,
                  let refusal = forward.refusal(mode: configuration.server.access.mode ?? .open,
                                                proxy: configuration.server.access.proxy)
            else { continue }
            throw DashboardError.forwardRefused(table: table.spec.name, refusal)
        }
        let registry = MetricsRegistry()
        let demo = DemoUpstream(configuration: configuration.demo)
        var demoServerConfiguration = HTTPServerConfiguration()
        demoServerConfiguration.host = "127.0.0.1"
        demoServerConfiguration.port = configuration.demo.port
        demoServerConfiguration.eventLoopCount = 1
        let demoServer = HTTPServer(configuration: demoServerConfiguration, responder: demo)
        let demoPort = try demoServer.start()

        let client: UpstreamClient
        do {
            client = try UpstreamClient(configuration: config?.upstream ?? UpstreamClientConfiguration(),
                                        observer: DashboardMetrics.upstreamObserver(registry: registry))
        } catch {
            demoServer.shutdown()
            throw DashboardError.upstreamClient(error)
        }
        let server: RowstreamServer
        var cluster: SharedCluster?
        do {
            cluster = try (configuration.redis ?? config?.redis).map { url in
                try SharedCluster.connect(url, keys: configuration.server.sealingKeys, commandTimeout: configuration.redisCommandTimeout,
                                          leaseTime: configuration.sharedLeaseTime, tag: configuration.server.instanceTag,
                                          registry: registry, logger: configuration.server.logger)
            }
            var tables = try config.map { file in
                file.tables.map { table in
                    TableFactory.make(table, client: client, secrets: file.secrets, cluster: cluster,
                                      keys: configuration.server.sealingKeys)
                }
            }
                ?? [DemoTable.make(client: client, upstreamPort: demoPort, batchSize: configuration.batchSize,
                                 demo: configuration.demo, cluster: cluster)]
            var pages = config?.pages ?? []
            if config == nil, configuration.demo.page {   // the demo's page of several tables
                tables += try DemoPage.extraTables(client: client, upstreamPort: demoPort,
                                                   batchSize: configuration.batchSize, demo: configuration.demo,
                                                   cluster: cluster)
                pages.append(DemoPage.page)
            }
            var serverConfiguration = configuration.server
            serverConfiguration.liveCluster = cluster?.live
            serverConfiguration.demandRelay = cluster?.relay
            server = listen
                ? try RowstreamServer.start(tables, pages: pages, configuration: serverConfiguration, registry: registry)
                : try RowstreamServer.inProcess(tables, pages: pages, configuration: serverConfiguration,
                                                registry: registry)
        } catch {
            client.shutdown()
            demoServer.shutdown()
            // Stopped before the error is thrown, as `waitUntilShutdown()` waits for a running dashboard's: a caller
            // that exits on this error holds no Redis traffic in flight (its shutdown was once a task nobody awaited).
            if let cluster {
                let stop = ClusterStop(cluster, stopped: configuration.clusterStopped)
                stop.start()
                stop.wait(bound: Self.clusterStopTime)
            }
            throw DashboardError.serverStart(error)
        }
        return Dashboard(port: server.port, demoPort: demoPort, demo: demo, server: server, demoServer: demoServer,
                         client: client, cluster: cluster.map { ClusterStop($0, stopped: configuration.clusterStopped) })
    }

    /// The keys of the key file `--secret-file` or `ROWSTREAM_SECRET_FILE` names, else the config's `secretFile`;
    /// without either, `server.sealingKeys` as given (random by default). A file others may read is logged.
    private static func sealingKeys(_ configuration: DashboardConfiguration, config: ConfigFile?) throws -> SealingKeys {
        guard let path = configuration.secretFile ?? config?.secretFile else { return configuration.server.sealingKeys }
        do {
            let keys = try SealingKeyFile.load(path: path)
            if let warning = SealingKeyFile.permissionWarning(path: path) {
                configuration.server.logger.log(.warning, warning)
            }
            return keys
        } catch {
            throw DashboardError.sealingKeys(error)
        }
    }

    /// Stops accepting, ends every open stream, finishes in-flight responses and stops the upstream side, within
    /// the server's bounded grace time. Idempotent.
    public func shutdown() {
        server.shutdown()
        client.shutdown()
        demoServer.shutdown()
        cluster?.start()
    }

    /// Blocks until `shutdown()` has completed: the server's, then the cluster's (its Redis client closed, its
    /// listeners read out), bounded by `clusterStopTime`. A process that exits after this holds no Redis traffic
    /// in flight (before, it exited while the cluster was still stopping, and LeakSanitizer reported the replies
    /// and messages a drained instance was still reading).
    public func waitUntilShutdown() {
        server.waitUntilShutdown()
        cluster?.wait(bound: Self.clusterStopTime)
    }

    /// The longest `waitUntilShutdown()` (or a start that fails once the cluster is made) waits for the cluster's
    /// shutdown: its Redis commands are bounded by their own timeout, so this is only a backstop.
    static let clusterStopTime: DispatchTimeInterval = .seconds(10)
}
