import Dashboard
import Foundation
import TestSupport
import Testing

/// Sort and filter controls of the demo table (`--demo-controls on`), live on port 0, against the demo upstream.
@Suite struct ControlsTests {
    static func start() throws -> Dashboard {
        try startDashboard(items: 60, batchSize: 10) { $0.controls = true }
    }

    static func firstKeys(_ port: Int, _ query: String) async throws -> [String] {
        let stream = try await SSEClient(port: port, path: "/tables/customers/stream" + query)
        return rowKeys(try await stream.next(named: "rows").event.data)
    }

    @Test func aChoiceSortsAndFiltersTheUpstreamAndTheDefaultIsUnchanged() async throws {
        let dashboard = try Self.start()
        defer { dashboard.shutdown() }
        #expect(try await Self.firstKeys(dashboard.port, "") == (1...10).map(String.init))
        #expect(try await Self.firstKeys(dashboard.port, "?p.sort=&p.status=") == (1...10).map(String.init),
                "empty choices send nothing")
        let byMRR = try await Self.firstKeys(dashboard.port, "?p.sort=-mrr")
        #expect(byMRR.count == 10 && byMRR != (1...10).map(String.init))
        // Straight from the demo upstream, the same order.
        let direct = try await fetch(dashboard.demoPort, "GET", "/v1/customers?limit=10&sort=-mrr")
        let items = try #require((try JSONSerialization.jsonObject(with: Data(direct.body.utf8)) as? [String: Any])?["data"] as? [[String: Any]])
        #expect(byMRR == items.map { "\($0["id"] ?? "")" })
        let active = try await SSEClient(port: dashboard.port, path: "/tables/customers/stream?p.status=active")
        let html = try await active.next(named: "rows").event.data
        #expect(html.components(separatedBy: "rs-badge-").dropFirst().allSatisfy { $0.hasPrefix("active") })
    }

    @Test func anUnknownChoiceIs400AndThePageShowsTheControls() async throws {
        let dashboard = try Self.start()
        defer { dashboard.shutdown() }
        #expect(try await fetch(dashboard.port, "GET", "/tables/customers/stream?p.sort=secret").status == 400)
        let page = try await fetch(dashboard.port, "GET", "/").body
        #expect(page.contains("<form class=\"rs-controls\" id=\"rs-controls\"><label class=\"rs-control\">Sort <select name=\"p.sort\"><option value=\"\">ID</option>"))
        let list = try await fetch(dashboard.port, "GET", "/api/tables").body
        #expect(list.contains("\"controls\":[{\"label\":\"Sort\""))
    }
}
