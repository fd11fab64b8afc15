import Dashboard
import Foundation
import JSON
import TestSupport
import Testing

/// Exactly once across a reconnect when the upstream drifts (issue 12, item 1): an offset-paginated upstream
/// whose every page repeats the last rows of the page before (rows inserted above the reader). The stream is cut
/// after each batch in turn and resumed with the last id; every run must show every row once, with consecutive
/// `data-index`es, and `complete` must count the distinct rows.
@Suite("Exactly once across reconnects on a drifting upstream")
struct DriftResumeTests {
    /// The upstream's rows (ids 1...count) and how many rows are inserted above the reader before each page
    /// after the first: page k (offset 50k) is the list with 5k rows inserted on top, so it repeats the last 5
    /// rows of page k-1. 300 rows in pages of 50 are 7 pages (the last one short): 7 batches.
    static let count = 300, pageSize = 50, drift = 5
    static var batches: Int { (count - pageSize) / (pageSize - drift) + 2 }

    /// The upstream (TestSupport's fixture server): `GET /v1/rows?offset=&limit=`, page k drifted by `drift * k`
    /// rows, as above.
    static func driftingUpstream() throws -> FixtureServer {
        try FixtureServer { request in
            let offset = Int(request.query["offset"] ?? "0") ?? 0
            let limit = Int(request.query["limit"] ?? "50") ?? 50
            // Rows inserted on top so far (ids above 10,000: above the reader, never shown to it).
            let inserted = drift * (offset / max(limit, 1))
            let list = (0..<inserted).map { 10_000 + inserted - $0 } + Array(1...count)
            let page = list[min(offset, list.count)..<min(offset + limit, list.count)]
            let rows = page.map { ["id": .int(Int64($0)), "name": .string("row \($0)")] as JSONValue }
            let body: JSONValue = ["data": .array(rows)]
            return .json(body.serialized())
        }
    }

    /// A table over `upstream` named `name`, in pages of `pageSize`.
    static func table(_ name: String, on upstream: FixtureServer) -> String {
        """
        {"name": "\(name)", "batchSize": \(pageSize),
         "request": {"url": "\(upstream.baseURL)/v1/rows"}, "items": "data", "key": "id",
         "columns": [{"title": "ID", "path": "id"}, {"title": "Name", "path": "name"}],
         "pagination": {"style": "offset"}, "cache": {"ttlSeconds": 0, "prefetch": false}}
        """
    }

    /// Tables `t0`...`t7` (each drifting as above); `drift` is `t0`. Page `both`: `t0` and `t1`; page `all`: all 8.
    private func withDashboard(_ body: (Dashboard) async throws -> Void) async throws {
        let names = ["drift"] + (1..<8).map { "t\($0)" }
        let all = names.map { "\"\($0)\"" }.joined(separator: ", ")
        try await DashboardTests.withDashboard(over: try Self.driftingUpstream(), config: { upstream in
            """
            {"tables": [\(names.map { Self.table($0, on: upstream) }.joined(separator: ", "))],
             "pages": [{"name": "both", "title": "Both", "tables": ["drift", "t1"]},
                       {"name": "all", "title": "All", "tables": [\(all)]}]}
            """
        }, file: "drift.json") { dashboard, _ in try await body(dashboard) }
    }

    /// What one table's viewer saw: keys and indexes of its rows, in order, and `complete`'s total.
    struct Seen {
        var keys: [String] = []
        var indexes: [Int] = []
        var total: Int?
        var batches = 0
        var longestID = 0
    }

    /// Reads `stream` (events of `table`, tagged `TABLE:TYPE` when `tagged`), POSTing `next` after each of the
    /// table's batches, until `complete` or until `stopAfter` batches of this connection; other tables' events
    /// are read and skipped (their first batch loads by itself).
    private func read(_ stream: SSEClient, table: String, tagged: Bool, port: Int, into seen: inout Seen,
                      stopAfter: Int? = nil) async throws {
        let prefix = tagged ? table + ":" : ""
        var next: String?
        var batchesHere = 0
        for _ in 0..<1_000 {
            guard let event = try await stream.next() else { break }
            if let id = event.id { seen.longestID = max(seen.longestID, id.utf8.count) }
            switch event.event {
            case prefix + "session":
                next = try sessionInfo(event)["next"] as? String
                // A resumed session waits for demand.
                if !seen.keys.isEmpty, let next { _ = try await post(port, next) }
            case prefix + "rows":
                seen.keys += rowKeys(event.data)
                seen.indexes += Self.indexes(event.data)
                seen.batches += 1
                batchesHere += 1
                if let stopAfter, batchesHere == stopAfter { return }
                if let next { _ = try await post(port, next) }
            case prefix + "complete":
                let object = try JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any]
                seen.total = object?["total"] as? Int
                return
            case prefix + "error", prefix + "reset":
                Issue.record("unexpected \(event.event): \(event.data)")
                return
            default:
                continue
            }
        }
    }

    private func check(_ seen: Seen, cut: Int) {
        // Compared as whole lists, reported as counts (a failure prints a line, not 300 keys).
        let everyKeyOnceInOrder = seen.keys == (1...Self.count).map(String.init)
        let indexesConsecutive = seen.indexes == Array(0..<Self.count)
        let summary = "cut after batch \(cut): \(seen.keys.count) rows, \(Set(seen.keys).count) distinct"
        #expect(everyKeyOnceInOrder, "\(summary)")
        #expect(indexesConsecutive, "\(summary), last data-index \(seen.indexes.last ?? -1)")
        #expect(seen.total == Self.count, "\(summary): complete says \(seen.total ?? -1)")
    }

    /// Opens `path`, reads `drift`'s batches up to `cut`, cuts the connection, reconnects with the last id and
    /// reads to `complete`: for every `cut` in turn. Checks each run, and that no id is `maxID` bytes or longer.
    private func cutAfterEveryBatch(_ dashboard: Dashboard, path: String, tagged: Bool, maxID: Int) async throws {
        for cut in 1...Self.batches {
            var seen = Seen()
            let first = try await SSEClient(port: dashboard.port, path: path)
            try await read(first, table: "drift", tagged: tagged, port: dashboard.port, into: &seen, stopAfter: cut)
            first.connection.closeNow()
            #expect(seen.batches == cut)
            let id = try #require(first.lastEventID)
            let second = try await SSEClient(port: dashboard.port, path: path, lastEventID: id)
            try await read(second, table: "drift", tagged: tagged, port: dashboard.port, into: &seen)
            second.connection.closeNow()
            check(seen, cut: cut)
            #expect(seen.longestID < maxID, "\(seen.longestID) bytes")
        }
    }

    @Test("a table's stream cut after each batch in turn: every row once, complete counts distinct rows")
    func tableStreamCutAfterEveryBatch() async throws {
        // A token with a full dedup window (64 keys) stays well inside the documented bound (about 1.4 KB).
        try await withDashboard {
            try await cutAfterEveryBatch($0, path: "/tables/drift/stream", tagged: false, maxID: 2_048)
        }
    }

    @Test("a page stream cut after each of a table's batches in turn: every row once on resume")
    func pageStreamCutAfterEveryBatch() async throws {
        try await withDashboard {
            try await cutAfterEveryBatch($0, path: "/pages/both/stream", tagged: true, maxID: 4_096)
        }
    }

    @Test("a page of 8 tables, each with a full dedup window: the token stays in its bound and resumes every table")
    func eightTablesFitTheirToken() async throws {
        try await withDashboard { dashboard in
            let stream = try await SSEClient(port: dashboard.port, path: "/pages/all/stream")
            // Each table: its first batch by itself, then one more on demand (two pages read: a full window).
            var batches: [String: Int] = [:]
            var nexts: [String: String] = [:]
            for _ in 0..<1_000 where batches.values.reduce(0, +) < 16 {
                guard let event = try await stream.next() else { break }
                let parts = event.event.split(separator: ":", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { continue }
                if parts[1] == "session" { nexts[parts[0]] = try sessionInfo(event)["next"] as? String }
                guard parts[1] == "rows" else { continue }
                batches[parts[0], default: 0] += 1
                if batches[parts[0]] == 1, let next = nexts[parts[0]] { _ = try await post(dashboard.port, next) }
            }
            stream.connection.closeNow()
            #expect(batches.count == 8 && batches.values.allSatisfy { $0 == 2 }, "\(batches)")
            let id = try #require(stream.lastEventID)
            #expect(id.utf8.count <= 12_288, "\(id.utf8.count) bytes")
            // Every table resumes after its second batch: a session each, no reset.
            let resumed = try await SSEClient(port: dashboard.port, path: "/pages/all/stream", lastEventID: id)
            var sessions = 0
            for _ in 0..<1_000 where sessions < 8 {
                guard let event = try await resumed.next() else { break }
                #expect(!event.event.hasSuffix(":reset"), "\(event.event)")
                if event.event.hasSuffix(":session") { sessions += 1 }
            }
            #expect(sessions == 8)
            resumed.connection.closeNow()
        }
    }

    /// The `data-index` values of the `<tr>`s in a rows fragment, in order.
    static func indexes(_ html: String) -> [Int] {
        html.components(separatedBy: "data-index=\"").dropFirst().compactMap { part in
            part.split(separator: "\"", maxSplits: 1).first.flatMap { Int($0) }
        }
    }
}
