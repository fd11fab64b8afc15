import Foundation
import HTTPServer
import JSON
import Metrics
import Tables
import Testing
import Upstream
@testable import Dashboard

/// Upstream faults as the viewer sees them: the first batch arrives, the second page's fetch meets the fault,
/// and the viewer gets one clear `error` event (no `reset`, so the page keeps its rows) while the server keeps
/// serving other viewers and /healthz. Needs `@testable` to point a table at a fault upstream; remove that once
/// tables come from configuration.
@Suite("Upstream faults")
struct UpstreamFaultTests {
    @Test(arguments: FaultUpstream.Fault.allCases)
    func aFaultGivesOneErrorEventAndTheServerKeepsServing(_ fault: FaultUpstream.Fault) async throws {
        let upstream = try FaultUpstream(fault)
        defer { upstream.stop() }
        // Only the hang should meet the request timeout: the others get ample time even under a sanitizer.
        let timeout: Duration = fault == .hang ? .seconds(1) : .seconds(20)
        let (server, port, client) = try startServer(upstreamPort: upstream.port, timeout: timeout)
        defer {
            server.shutdown()
            client.shutdown()
        }

        let viewer = try await SSEClient(port: port, path: "/tables/bad/stream", timeoutSeconds: 30)
        let session = try sessionInfo(try await viewer.next(named: "session").event)
        let nextURL = try #require(session["next"] as? String)
        let first = try await viewer.next(named: "rows").event
        #expect(rowKeys(first.data) == ["0", "1", "2", "3", "4"])
        #expect(try await post(port, nextURL) == 202)
        let (error, skipped) = try await viewer.next(named: "error")
        #expect(!skipped.contains { $0.event == "reset" || $0.event == "rows" })
        let body = try #require(try JSONSerialization.jsonObject(with: Data(error.data.utf8)) as? [String: Any])
        let message = try #require(body["message"] as? String)
        #expect(!message.isEmpty && message.count < 200)
        #expect(!message.contains("127.0.0.1") && !message.contains("\(upstream.port)"), "message leaks the URL")
        #expect(body["retryable"] is Bool)
        if fault == .gzipBomb || fault == .tenMegabytePage { #expect(message.contains("too large")) }
        if fault == .hang { #expect(message.contains("in time")) }

        // Meanwhile the server serves others.
        let other = try await SSEClient(port: port, path: "/tables/good/stream")
        #expect(rowKeys(try await other.next(named: "rows").event.data).count == 5)
        #expect(try await fetch(port, "GET", "/healthz").status == 200)
        viewer.connection.closeNow()
        other.connection.closeNow()
    }

    /// Routes with two tables over the fault upstream: `good` (always valid pages) and `bad`.
    private func startServer(upstreamPort: Int, timeout: Duration) throws -> (HTTPServer, Int, UpstreamClient) {
        let client = try UpstreamClient()
        var configuration = DashboardConfiguration()
        configuration.batchTimeout = .seconds(30)
        configuration.publicDirectory = publicDirectory
        let template = try PageTemplate(directory: publicDirectory)
        var tables: [String: DashboardTable] = [:]
        for name in ["good", "bad"] {
            let spec = TableSpec(name: name, title: name, columns: [
                Column(title: "ID", field: try JSONPath("id"), format: .number),
                Column(title: "Name", field: try JSONPath("name")),
            ], keyField: try JSONPath("id"))
            var request = PageRequestTemplate(url: "http://127.0.0.1:\(upstreamPort)/\(name)")
            request.pageSize = 5
            request.timeout = timeout
            let source = PageSource(client: client, template: request, itemsPath: try JSONPath("data"),
                                    style: .cursor(parameter: "cursor", nextCursorPath: try JSONPath("next_cursor")))
            tables[name] = DashboardTable(spec: spec, source: source, batchSize: 5)
        }
        let routes = DashboardRoutes(
            tables: tables, order: ["good", "bad"], pages: tables.mapValues { template.render($0) },
            registry: SessionRegistry(), metrics: DashboardMetrics(registry: MetricsRegistry()),
            configuration: configuration, staticFiles: try StaticFiles(root: publicDirectory)
        )
        var serverConfiguration = HTTPServerConfiguration()
        serverConfiguration.port = 0
        serverConfiguration.eventLoopCount = 1
        let server = HTTPServer(configuration: serverConfiguration, responder: routes.router())
        return (server, try server.start(), client)
    }
}
