import Dashboard
import Foundation
import HTTPServerTesting
import TestSupport
import Testing

/// The demo page (`/pages/overview`: customers with controls, by city, as cards) on one stream: a control change
/// restarts one table only, and the choice survives a reconnect. Live on port 0 against the demo upstream.
@Suite struct PageControlsTests {
    static func start() throws -> Dashboard {
        try startDashboard(items: 60, batchSize: 10) { $0.controls = true; $0.page = true }
    }

    /// The ids of the demo upstream's records `offset..<offset+10` for `query`, straight from it.
    static func upstreamIDs(_ dashboard: Dashboard, _ query: String, offset: Int = 0) async throws -> [String] {
        let direct = try await fetch(dashboard.demoPort, "GET", "/v1/customers?limit=\(offset + 10)&\(query)")
        let object = try JSONSerialization.jsonObject(with: Data(direct.body.utf8)) as? [String: Any]
        let items = try #require(object?["data"] as? [[String: Any]])
        return items.dropFirst(offset).map { "\($0["id"] ?? "")" }
    }

    /// Reads events until `done` holds; returns them.
    static func read(_ stream: SSEClient, until done: ([ReceivedEvent]) -> Bool) async throws -> [ReceivedEvent] {
        var events: [ReceivedEvent] = []
        for _ in 0..<200 where !done(events) {
            guard let event = try await stream.next() else { break }
            if event.event != "heartbeat" { events.append(event) }
        }
        return events
    }

    static func count(_ events: [ReceivedEvent], _ name: String) -> Int { events.filter { $0.event == name }.count }

    @Test func aChoiceRestartsOnlyItsTableAndSurvivesAReconnect() async throws {
        let dashboard = try Self.start()
        defer { dashboard.shutdown() }
        let stream = try await SSEClient(port: dashboard.port, path: "/pages/overview/stream")
        let opening = try await Self.read(stream) { events in
            ["customers", "customers-by-city", "customers-cards"].allSatisfy { Self.count(events, $0 + ":rows") == 1 }
        }
        let session = try sessionInfo(try #require(opening.first { $0.event == "customers:session" }))
        let reload = try #require(session["reload"] as? String)
        #expect(try await post(dashboard.port, reload + "?p.sort=secret") == 400, "only the listed options")
        #expect(try await post(dashboard.port, reload + "?p.sort=-mrr") == 202)
        let restarted = try await Self.read(stream) { Self.count($0, "customers:rows") == 1 }
        #expect(restarted.map(\.event) == ["customers:reset", "customers:loading", "customers:total", "customers:rows"],
                "that table only: reset, then its first batch (its total, sent again after a reset, just before it)")
        let expected = try await Self.upstreamIDs(dashboard, "sort=-mrr")
        #expect(rowKeys(restarted.last?.data ?? "") == expected)
        #expect(expected != (1...10).map(String.init))

        // The choice is in the page's resume token: after a reconnect the next batch is still by MRR.
        let token = try #require(stream.lastEventID)
        stream.connection.closeNow()
        let resumed = try await SSEClient(port: dashboard.port, path: "/pages/overview/stream", lastEventID: token)
        let sessions = try await Self.read(resumed) { Self.count($0, "customers:session") == 1 }
        let last = try #require(sessions.last)
        let next = try #require(try sessionInfo(last)["next"] as? String)
        #expect(try await post(dashboard.port, next) == 202)
        let more = try await Self.read(resumed) { Self.count($0, "customers:rows") == 1 }
        #expect(!more.contains { $0.event.hasSuffix(":reset") })
        #expect(rowKeys(more.last?.data ?? "") == (try await Self.upstreamIDs(dashboard, "sort=-mrr", offset: 10)))
    }

    @Test func aTablesOwnSessionIgnoresAChoiceOnReloadAsBefore() async throws {
        let dashboard = try Self.start()
        defer { dashboard.shutdown() }
        let stream = try await SSEClient(port: dashboard.port, path: "/tables/customers/stream")
        let session = try sessionInfo(try await stream.next(named: "session").event)
        #expect(rowKeys(try await stream.next(named: "rows").event.data) == (1...10).map(String.init))
        let reload = try #require(session["reload"] as? String)
        #expect(try await post(dashboard.port, reload + "?p.sort=-mrr") == 202)
        _ = try await stream.next(named: "reset")
        #expect(rowKeys(try await stream.next(named: "rows").event.data) == (1...10).map(String.init),
                "the table as its stream URL says: the choice in the POST is ignored")
    }
}
