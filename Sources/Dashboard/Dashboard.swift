import Foundation
import HTTPServer
import Metrics
import Upstream

/// A running dashboard: the demo upstream on loopback, the upstream client, and the HTTP server with the
/// dashboard's routes. Start it with `Dashboard.start(_:)`; stop it with `shutdown()`.
///
/// Thread-safe: `shutdown()` and `waitUntilShutdown()` may be called from any thread.
public final class Dashboard: Sendable {
    /// The port the dashboard listens on (useful with port 0).
    public let port: Int
    /// The demo upstream's port on 127.0.0.1.
    public let demoPort: Int
    /// The demo upstream itself (its request count is useful to tests and benchmarks).
    public let demo: DemoUpstream
    private let server: HTTPServer
    private let demoServer: HTTPServer
    private let client: UpstreamClient

    private init(port: Int, demoPort: Int, demo: DemoUpstream, server: HTTPServer, demoServer: HTTPServer,
                 client: UpstreamClient) {
        self.port = port
        self.demoPort = demoPort
        self.demo = demo
        self.server = server
        self.demoServer = demoServer
        self.client = client
    }

    /// Starts everything and returns once the dashboard accepts connections. Errors name what failed.
    /// With `config`, its tables are served (from their upstreams) instead of the demo table.
    public static func start(_ configuration: DashboardConfiguration, config: ConfigFile? = nil) throws -> Dashboard {
        guard configuration.batchSize >= 1, configuration.batchSize <= 500 else {
            throw DashboardError("batch size must be 1...500, not \(configuration.batchSize)")
        }
        let registry = MetricsRegistry()
        let metrics = DashboardMetrics(registry: registry)
        let template = try PageTemplate(directory: configuration.publicDirectory)
        let staticFiles: StaticFiles
        do {
            staticFiles = try StaticFiles(root: configuration.publicDirectory)
        } catch {
            throw DashboardError("cannot serve \(configuration.publicDirectory): \(error)")
        }

        let demo = DemoUpstream(configuration: configuration.demo)
        var demoServerConfiguration = HTTPServerConfiguration()
        demoServerConfiguration.host = "127.0.0.1"
        demoServerConfiguration.port = 0
        demoServerConfiguration.eventLoopCount = 1
        let demoServer = HTTPServer(configuration: demoServerConfiguration, responder: demo)
        let demoPort = try demoServer.start()

        let client: UpstreamClient
        do {
            client = try UpstreamClient(configuration: config?.upstream ?? UpstreamClientConfiguration(),
                                        observer: DashboardMetrics.upstreamObserver(registry: registry))
        } catch {
            demoServer.shutdown()
            throw DashboardError("cannot start the upstream client: \(error)")
        }
        let seal = CursorSeal.random()
        let tables = try config.map { file in
            file.tables.map { TableFactory.make($0, client: client, seal: seal, secrets: file.secrets) }
        }
            ?? [DemoTable.make(client: client, upstreamPort: demoPort, batchSize: configuration.batchSize)]
        let sessions = SessionRegistry()
        let routes = DashboardRoutes(
            tables: Dictionary(uniqueKeysWithValues: tables.map { ($0.name, $0) }),
            order: tables.map(\.name),
            pages: Dictionary(uniqueKeysWithValues: tables.map { ($0.name, template.render($0)) }),
            registry: sessions,
            metrics: metrics,
            configuration: configuration,
            staticFiles: staticFiles
        )

        var serverConfiguration = HTTPServerConfiguration()
        serverConfiguration.host = configuration.host
        serverConfiguration.port = configuration.port
        serverConfiguration.heartbeatInterval = configuration.heartbeatInterval
        if let loops = configuration.eventLoopCount { serverConfiguration.eventLoopCount = loops }
        let server = HTTPServer(configuration: serverConfiguration, responder: routes.router())
        let port: Int
        do {
            port = try server.start()
        } catch {
            client.shutdown()
            demoServer.shutdown()
            throw DashboardError("cannot listen on \(configuration.host):\(configuration.port): \(error)")
        }
        metrics.observe(server: server, sessions: sessions)
        return Dashboard(port: port, demoPort: demoPort, demo: demo, server: server, demoServer: demoServer,
                         client: client)
    }

    /// Stops accepting, ends every open stream, finishes in-flight responses and stops the upstream side, within
    /// the server's bounded grace time. Idempotent.
    public func shutdown() {
        server.shutdown()
        client.shutdown()
        demoServer.shutdown()
    }

    /// Blocks until `shutdown()` has completed.
    public func waitUntilShutdown() {
        server.waitUntilShutdown()
    }
}
