import Foundation
import RowstreamKit
import TestSupport
import Testing

/// A live table on a page: its changes reach the page's stream tagged with its name, encoded once for every page
/// viewer; a live table keeps the page's stream open after `complete`.
@Suite("Pages: live tables")
struct PageLiveTests {
    @Test("a refresh reaches every page viewer as NAME:insert / NAME:update, the same bytes; the table's own viewers get the plain events")
    func liveChangesAreTagged() async throws {
        let store = LiveTests.Store()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.eventLoopCount = 2
        let server = try RowstreamServer.start(
            [LiveTests.table(store, batchSize: 6), peopleTable(offsetSource(people(3)), name: "still")],
            pages: [DashboardPage(name: "watch", title: "Watch", tables: ["still", "live"])],
            configuration: configuration
        )
        defer { server.shutdown() }
        let pages = [try await SSEClient(port: server.port, path: "/pages/watch/stream"),
                     try await SSEClient(port: server.port, path: "/pages/watch/stream")]
        for page in pages { _ = try await page.next(named: "live:rows") }
        let own = try await SSEClient(port: server.port, path: "/tables/live/stream")
        _ = try await own.next(named: "rows")

        var changed = store.all
        changed[0] = LiveTests.renamed(changed[0], "Renamed")
        changed.insert(people(20)[19], at: 0)
        store.set(changed)
        let summary = try object(try await fetch(server.port, "POST", "/tables/live/refresh").body)
        #expect(summary["viewers"] as? Int == 3)
        #expect(summary["inserted"] as? Int == 1 && summary["updated"] as? Int == 1)

        var updates: [String] = []
        for page in pages {
            let update = try await page.next(named: "live:update")
            #expect(!update.skipped.contains { $0.event.hasSuffix(":reset") })
            #expect(rowKeys(update.event.data) == ["p1"])
            updates.append(update.event.data)
            #expect(rowKeys(try await page.next(named: "live:insert").event.data) == ["p20"])
        }
        #expect(updates[0] == updates[1], "the same bytes to every page viewer")
        let plain = try await own.next(named: "update").event
        #expect(plain.data == updates[0], "the same rows as the table's own stream, under another name")
    }
}
