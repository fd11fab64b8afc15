import Foundation
import RowstreamKit
import RowstreamTesting
import TestSupport
import Testing

/// Several tables on one page over one event stream (``DashboardPage``), public API only: the stream live on port 0,
/// the page and listings in-process.
@Suite("Pages: several tables on one stream")
struct PageStreamTests {
    /// The tables and page of ``start()``, in-process.
    static func testServer() throws -> RowstreamTestServer {
        try RowstreamTestServer(
            [peopleTable(offsetSource(people(25)), name: "big"), peopleTable(offsetSource(people(5)), name: "small")],
            pages: [DashboardPage(name: "both", title: "Both <tables>", tables: ["big", "small"])]
        )
    }

    /// Two tables: `big` (25 people, 3 batches) and `small` (5 people, one batch), on the page `both`.
    static func start() throws -> RowstreamServer {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.eventLoopCount = 2
        return try RowstreamServer.start(
            [peopleTable(offsetSource(people(25)), name: "big"), peopleTable(offsetSource(people(5)), name: "small")],
            pages: [DashboardPage(name: "both", title: "Both <tables>", tables: ["big", "small"])],
            configuration: configuration
        )
    }

    /// What a page viewer saw, per table: the events by type, the row keys in order, the session.
    final class Seen: @unchecked Sendable {
        var events: [String] = []
        var keys: [String: [String]] = [:]
        var sessions: [String: [String: Any]] = [:]
        var rowsData: [String: [String]] = [:]

        /// Reads events until `done` holds (or the stream ends); every event must name its table.
        func read(_ stream: SSEClient, until done: (Seen) -> Bool) async throws {
            for _ in 0..<200 where !done(self) {
                guard let event = try await stream.next() else { return }
                if event.event == "heartbeat" { continue }
                let parts = event.event.split(separator: ":", maxSplits: 1).map(String.init)
                #expect(parts.count == 2, "tagged: \(event.event)")
                let (table, type) = (parts[0], parts.count == 2 ? parts[1] : "")
                events.append(event.event)
                switch type {
                case "session": sessions[table] = try object(event.data)
                case "rows":
                    keys[table, default: []] += rowKeys(event.data)
                    rowsData[table, default: []].append(event.data)
                    #expect(event.id?.hasPrefix("p1.") == true, "one combined resume token")
                default: break
                }
            }
        }

        func count(_ event: String) -> Int { events.filter { $0 == event }.count }
    }

    @Test("events are tagged per table, rows are the single-table bytes, demand and completion are per table; 204 when all are done")
    func taggedAndIndependent() async throws {
        let server = try Self.start()
        defer { server.shutdown() }
        let stream = try await SSEClient(port: server.port, path: "/pages/both/stream")
        #expect(stream.status == 200)
        let seen = Seen()
        try await seen.read(stream) { $0.count("small:complete") == 1 && $0.count("big:rows") == 1 }
        #expect(seen.keys["small"] == (1...5).map { "p\($0)" })
        #expect(seen.keys["big"] == (1...10).map { "p\($0)" })
        #expect(seen.events.firstIndex(of: "big:session")! < seen.events.firstIndex(of: "big:rows")!)
        // The same HTML the table's own stream sends for its first batch.
        let own = try await SSEClient(port: server.port, path: "/tables/big/stream")
        #expect(try await own.next(named: "rows").event.data == seen.rowsData["big"]?.first)

        // Demand for `big` loads `big` only; `small` stays complete.
        let next = try #require(seen.sessions["big"]?["next"] as? String)
        #expect(next.hasPrefix("/tables/big/sessions/"))
        for _ in 0..<2 {
            #expect(try await post(server.port, next) == 202)
            let before = seen.count("big:rows")
            try await seen.read(stream) { $0.count("big:rows") == before + 1 }
        }
        try await seen.read(stream) { $0.count("big:complete") == 1 }
        #expect(seen.keys["big"] == (1...25).map { "p\($0)" })
        #expect(seen.events.filter { $0.hasPrefix("small:") } == ["small:session", "small:loading", "small:rows", "small:complete"])
        #expect(try await stream.next() == nil, "every table complete: the stream ends")
        let again = try await SSEClient(port: server.port, path: "/pages/both/stream", lastEventID: stream.lastEventID)
        #expect(again.status == 204)
    }

    @Test("a reconnect with Last-Event-ID resumes every table: each row exactly once")
    func resumeEveryTable() async throws {
        let server = try Self.start()
        defer { server.shutdown() }
        let first = try await SSEClient(port: server.port, path: "/pages/both/stream")
        let seen = Seen()
        try await seen.read(first) { $0.count("big:rows") == 1 && $0.count("small:rows") == 1 }
        let next = try #require(seen.sessions["big"]?["next"] as? String)
        #expect(try await post(server.port, next) == 202)
        try await seen.read(first) { $0.count("big:rows") == 2 }
        let token = try #require(first.lastEventID)
        first.connection.closeNow()

        let second = try await SSEClient(port: server.port, path: "/pages/both/stream", lastEventID: token)
        let resumed = Seen()
        try await resumed.read(second) { $0.sessions.count == 2 && $0.count("small:complete") == 1 }
        #expect(resumed.count("big:rows") == 0 && resumed.count("small:rows") == 0, "nothing again until demand")
        #expect(resumed.count("big:reset") == 0 && resumed.count("small:reset") == 0)
        let resumedNext = try #require(resumed.sessions["big"]?["next"] as? String)
        #expect(try await post(server.port, resumedNext) == 202)
        try await resumed.read(second) { $0.count("big:complete") == 1 }
        let big = (seen.keys["big"] ?? []) + (resumed.keys["big"] ?? [])
        let small = (seen.keys["small"] ?? []) + (resumed.keys["small"] ?? [])
        #expect(big == (1...25).map { "p\($0)" }, "no row twice, none missing")
        #expect(small == (1...5).map { "p\($0)" })
    }

    @Test("a finished table reloaded goes on: the stream ends only once it is complete again, not when the others are")
    func reloadAfterCompleteKeepsTheStream() async throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.eventLoopCount = 2
        let server = try RowstreamServer.start(
            [peopleTable(offsetSource(people(25)), name: "a"), peopleTable(offsetSource(people(25)), name: "b")],
            pages: [DashboardPage(name: "ab", title: "A and B", tables: ["a", "b"])],
            configuration: configuration
        )
        defer { server.shutdown() }
        let stream = try await SSEClient(port: server.port, path: "/pages/ab/stream")
        let seen = Seen()
        try await seen.read(stream) { $0.count("a:rows") == 1 && $0.count("b:rows") == 1 }
        let a = try #require(seen.sessions["a"]), b = try #require(seen.sessions["b"])
        let (aNext, aReload, bNext) = (a["next"] as? String ?? "", a["reload"] as? String ?? "", b["next"] as? String ?? "")
        /// POSTs `table`'s next until its `complete` number `times` arrives.
        func finish(_ table: String, _ next: String, times: Int) async throws {
            for _ in 0..<5 where seen.count("\(table):complete") < times {
                let rows = seen.count("\(table):rows")
                #expect(try await post(server.port, next) == 202)
                try await seen.read(stream) { $0.count("\(table):rows") > rows }
                // The final batch ends with the marker; its `complete` follows (asking more could end the stream).
                if seen.rowsData[table]?.last?.hasSuffix("<!--rs:last-->") == true { break }
            }
            try await seen.read(stream) { $0.count("\(table):complete") == times }
        }
        try await finish("a", aNext, times: 1)
        #expect(try await post(server.port, aReload) == 202)
        try await seen.read(stream) { $0.count("a:reset") == 1 && $0.count("a:rows") == 4 }
        try await finish("b", bNext, times: 1)
        #expect(seen.count("b:complete") == 1)
        try await finish("a", aNext, times: 2)                    // the stream is still open: `a` goes on
        #expect(seen.count("a:complete") == 2)
        #expect(seen.keys["a"] == (1...25).map { "p\($0)" } + (1...25).map { "p\($0)" }, "every row again, after the reset")
        #expect(try await stream.next() == nil, "both complete: the stream ends")
    }

    @Test("a garbage, foreign or single-table token starts every table over with a reset", arguments: [
        "garbage", "p1.eyJnIjoib3RoZXIiLCJ0Ijp7fX0", "v1.eyJ0IjoiYmlnIiwibyI6MCwicCI6InMifQ",
    ])
    func unreadableTokenResets(token: String) async throws {
        let server = try Self.start()
        defer { server.shutdown() }
        let stream = try await SSEClient(port: server.port, path: "/pages/both/stream", lastEventID: token)
        let seen = Seen()
        try await seen.read(stream) { $0.count("big:rows") == 1 && $0.count("small:rows") == 1 }
        for table in ["big", "small"] {
            let reset = try #require(seen.events.firstIndex(of: "\(table):reset"))
            #expect(reset < seen.events.firstIndex(of: "\(table):rows")!)
        }
        #expect(seen.keys["big"] == (1...10).map { "p\($0)" })
    }

    @Test("the page paints every table's skeletons; /api/pages and /api/tables list it; an unknown page is 404")
    func pageAndListing() async throws {
        let server = try Self.testServer()
        defer { server.shutdown() }
        let response = await server.client.get("/pages/both")
        let page = response.text
        #expect(response.status == .ok)
        #expect(page.contains("<title>Both &lt;tables&gt; · Rowstream</title>"))
        #expect(page.contains("data-stream=\"/pages/both/stream\""))
        for table in ["big", "small"] {
            #expect(page.contains("<section class=\"rs-panel\" data-rs-table=\"\(table)\""))
            let pending = try #require(page.range(of: "<tbody id=\"rs-pending--\(table)\">"))
            #expect(page[pending.upperBound...].hasPrefix("<tr class=\"rs-skeleton\""))
        }
        #expect(!page.contains("id=\"rs-rows\""), "ids are unique per table")
        let single = await server.client.get("/tables/small").text
        #expect(single.contains("<a href=\"/pages/both\">Both &lt;tables&gt;</a>"), "the table's page links the page")
        let pages = try object(await server.client.get("/api/pages").text)
        let entry = try #require((pages["pages"] as? [[String: Any]])?.first)
        #expect(entry["stream"] as? String == "/pages/both/stream")
        #expect(entry["tables"] as? [String] == ["big", "small"])
        #expect(try object(await server.client.get("/api/tables").text)["pages"] != nil)
        #expect(await server.client.get("/pages/nope").status == .notFound)
        #expect(await server.client.get("/pages/nope/stream").status == .notFound)
    }

    @Test("pages are checked at start: unknown or repeated tables, bad or repeated names", arguments: [
        [DashboardPage(name: "p", title: "P", tables: ["big", "nope"])],
        [DashboardPage(name: "p", title: "P", tables: ["big", "big"])],
        [DashboardPage(name: "p", title: "P", tables: [])],
        [DashboardPage(name: "bad name", title: "P", tables: ["big"])],
        [DashboardPage(name: "p", title: "P", tables: ["big"]), DashboardPage(name: "p", title: "Q", tables: ["big"])],
    ])
    func invalidPages(pages: [DashboardPage]) {
        #expect(throws: RowstreamError.self) {
            let server = try RowstreamTestServer([peopleTable(offsetSource(people(5)), name: "big")], pages: pages)
            server.shutdown()
        }
    }
}
