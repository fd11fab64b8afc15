import Dashboard
import Foundation
import HTTPServerTesting
import TestSupport
import Testing

/// Sort and filter controls of the demo table (`--demo-controls on`), in-process, against the demo upstream.
@Suite struct ControlsTests {
    static func start() throws -> Dashboard {
        try startDashboard(inProcess: true, items: 60, batchSize: 10) { $0.controls = true }
    }

    /// The first batch's HTML of the stream with `query`.
    static func firstRows(_ dashboard: Dashboard, _ query: String) async throws -> String {
        let response = await InProcessClient(dashboard.responder).get("/tables/customers/stream" + query)
        let stream = try #require(response.stream, "\(response.status): \(response.text)")
        defer { stream.close() }
        return try await stream.next(named: "rows").event.data
    }

    static func firstKeys(_ dashboard: Dashboard, _ query: String) async throws -> [String] {
        rowKeys(try await firstRows(dashboard, query))
    }

    @Test func aChoiceSortsAndFiltersTheUpstreamAndTheDefaultIsUnchanged() async throws {
        let dashboard = try Self.start()
        defer { dashboard.shutdown() }
        #expect(try await Self.firstKeys(dashboard, "") == (1...10).map(String.init))
        #expect(try await Self.firstKeys(dashboard, "?p.sort=&p.status=") == (1...10).map(String.init),
                "empty choices send nothing")
        let byMRR = try await Self.firstKeys(dashboard, "?p.sort=-mrr")
        #expect(byMRR.count == 10 && byMRR != (1...10).map(String.init))
        // Straight from the demo upstream, the same order.
        let direct = try await fetch(dashboard.demoPort, "GET", "/v1/customers?limit=10&sort=-mrr")
        let items = try #require((try JSONSerialization.jsonObject(with: Data(direct.body.utf8)) as? [String: Any])?["data"] as? [[String: Any]])
        #expect(byMRR == items.map { "\($0["id"] ?? "")" })
        let html = try await Self.firstRows(dashboard, "?p.status=active")
        #expect(html.components(separatedBy: "rs-badge-").dropFirst().allSatisfy { $0.hasPrefix("active") })
    }

    @Test func theDemoSearchFiltersNamesIgnoringCase() async throws {
        let dashboard = try Self.start()
        defer { dashboard.shutdown() }
        let found = try await Self.firstKeys(dashboard, "?p.q=AN&p.sort=-mrr")
        let direct = try await fetch(dashboard.demoPort, "GET", "/v1/customers?limit=10&sort=-mrr&q=AN")
        let items = try #require((try JSONSerialization.jsonObject(with: Data(direct.body.utf8)) as? [String: Any])?["data"] as? [[String: Any]])
        #expect(!items.isEmpty && items.allSatisfy { ($0["name"] as? String ?? "").lowercased().contains("an") })
        #expect(found == items.map { "\($0["id"] ?? "")" } && found != (1...10).map(String.init))
        let all = try await fetch(dashboard.demoPort, "GET", "/v1/customers?limit=10&q=")
        #expect(all.body.contains("\"id\":1,"), "an empty text filters nothing")
    }

    @Test func anUnknownChoiceIs400AndThePageShowsTheControls() async throws {
        let dashboard = try Self.start()
        defer { dashboard.shutdown() }
        let client = InProcessClient(dashboard.responder)
        #expect(await client.get("/tables/customers/stream?p.sort=secret").status == .badRequest)
        let page = await client.get("/").text
        #expect(page.contains("<form class=\"rs-controls\" id=\"rs-controls\"><div class=\"rs-search\" role=\"search\"><label class=\"rs-control\">Search names <input type=\"search\" name=\"p.q\" maxlength=\"100\" autocomplete=\"off\" spellcheck=\"false\" value=\"\"></label></div>"))
        #expect(page.contains("</div><label class=\"rs-control\">Sort <select name=\"p.sort\"><option value=\"\">ID</option>"))
        let list = await client.get("/api/tables").text
        #expect(list.contains("\"controls\":[{\"label\":\"Sort\""))
        #expect(list.contains("\"search\":{\"label\":\"Search names\",\"maxLength\":100,\"parameter\":\"q\"}"))
    }
}
