import Dashboard
import Foundation
import HTTPServer
import HTTPServerTesting
import JSON
import Locking
import TestSupport
import Upstream
import Testing
@testable import RowstreamKit
@testable import Dashboard

/// "Download all rows" (`/tables/NAME/export.csv|.ndjson`, docs/PROTOCOL.md "Export") of a config table, in-process,
/// over a fixture upstream whose pages drift (each repeats the previous page's last item: the walk's dedup drops it),
/// whose names are spreadsheet formulas, commas, quotes, newlines and non-ASCII text, and which can fail midway.
@Suite struct ExportTests {
    static let batchSize = 5

    /// Item `index` (0-based): id `index + 1`, a tricky name for the first few, a negative score.
    static func name(_ index: Int) -> String {
        let tricky = ["=1+2", "a,b", "say \"hi\"", "two\nlines", "Zoë 東京 🚀", "-5", "@SUM(A1)", "\tTab", "+1"]
        return index < tricky.count ? tricky[index] : "item \(index + 1)"
    }

    /// `GET /v1/items?offset=&limit=[&sort=]` over `count` items, with offset drift; 500 from offset `failAt` on.
    static func upstream(count: Int, failAt: Int? = nil) throws -> FixtureServer {
        try FixtureServer { request in
            let offset = Int(request.query["offset"] ?? "0") ?? 0
            let limit = Int(request.query["limit"] ?? "10") ?? 10
            if let failAt, offset >= failAt { return .json("{\"error\":\"upstream down\"}", status: 500) }
            let start = max(0, offset - 1)
            let items: [JSONValue] = (start..<min(count, start + limit)).map { index in
                ["id": .int(Int64(index + 1)), "name": .string(name(index)), "score": .int(Int64(-index))]
            }
            return .json(JSONValue.object(["results": .array(items), "total": .int(Int64(count))]).serialized())
        }
    }

    static func config(port: UInt16, extra: String = "") -> String {
        """
        {"tables": [{"name": "items", "title": "Items", "batchSize": \(batchSize),
          "request": {"url": "http://127.0.0.1:\(port)/v1/items"},
          "items": "results", "key": "id",
          "columns": [{"title": "ID", "path": "id", "format": "number"}, {"title": "Name", "path": "name"},
                      {"title": "Score", "path": "score", "format": "number"}],
          "pagination": {"style": "offset", "totalPath": "total"},
          "retry": {"attempts": 1},
          "cache": {"ttlSeconds": 600, "prefetch": false}\(extra)}]}
        """
    }

    /// Runs `body` over an in-process dashboard serving `config` over `upstream`; both stopped after.
    static func withDashboard(
        count: Int = 23, failAt: Int? = nil, extra: String = "",
        _ body: (InProcessClient, FixtureServer) async throws -> Void
    ) async throws {
        try await withInProcessDashboard(over: try upstream(count: count, failAt: failAt),
                                         config: { config(port: $0.port, extra: extra) }, file: "export.json", body)
    }

    /// The whole body of `target`, and the response.
    static func download(_ client: InProcessClient, _ target: String, headers: HTTPHeaders = [:]) async throws
        -> (InProcessResponse, String)
    {
        let response = await client.get(target, headers: headers)
        guard let stream = response.stream else { return (response, response.text) }
        defer { stream.close() }
        return (response, String(decoding: try await stream.readToEnd(timeout: .seconds(60)), as: UTF8.self))
    }

    /// RFC 4180 records of `text` (quoted fields may hold commas, quotes and line breaks), as a spreadsheet reads them.
    static func records(_ text: String) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var chars = Array(text.unicodeScalars)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { field.unicodeScalars.append(chars.removeFirst()) } else { quoted = false }
                } else {
                    field.unicodeScalars.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                record.append(field)
                field = ""
            } else if c == "\r", chars.first == "\n" {
                chars.removeFirst()
                record.append(field)
                records.append(record)
                (record, field) = ([], "")
            } else {
                field.unicodeScalars.append(c)
            }
        }
        if !field.isEmpty || !record.isEmpty { records.append(record + [field]) }
        return records
    }

    /// What a spreadsheet must show for item `index`'s name: formula-like text with a leading `'`.
    static func neutralized(_ index: Int) -> String {
        let name = name(index)
        return ["=", "+", "-", "@", "\t", "\r"].contains(where: name.hasPrefix) ? "'" + name : name
    }

    @Test func csvHoldsEveryRowOnceInOrderNeutralizedAndQuoted() async throws {
        try await Self.withDashboard { client, upstream in
            let (response, body) = try await Self.download(client, "/tables/items/export.csv")
            #expect(response.status == .ok)
            #expect(response.headers["Content-Type"] == "text/csv; charset=utf-8")
            #expect(response.headers["Content-Disposition"] == "attachment; filename=\"items.csv\"")
            #expect(response.headers["Cache-Control"] == "no-store")
            let records = Self.records(body)
            #expect(records.first == ["ID", "Name", "Score"])
            let rows = Array(records.dropFirst())
            #expect(rows.map { $0[0] } == (1...23).map(String.init), "every row once, in order, across drifting pages")
            #expect(rows.map { $0[1] } == (0..<23).map(Self.neutralized))
            #expect(rows.map { $0[2] } == (0..<23).map { String(-$0) }, "numbers stay numbers: -5, not '-5")
            #expect(rows.allSatisfy { $0.count == 3 })
            #expect(body.contains("\"say \"\"hi\"\"\"") && body.contains("\"two\nlines\"") && body.contains("\"a,b\""))
            #expect(!body.contains("# Rowstream export stopped"), "a complete file has no stop line")
            #expect(upstream.requests.count == 5, "one fetch per page: \(upstream.requests.map(\.target))")
            let listing = try jsonObject(await client.get("/api/tables").text)
            let entry = try #require((listing["tables"] as? [[String: Any]])?.first)
            #expect(entry["export"] as? [String: String]
                    == ["csv": "/tables/items/export.csv", "ndjson": "/tables/items/export.ndjson"])
            let page = await client.get("/tables/items").text
            #expect(page.contains("href=\"/tables/items/export.csv\" download") && page.contains("id=\"rs-export-status\""))
        }
    }

    @Test func ndjsonHoldsEveryRowOnceAsObjects() async throws {
        try await Self.withDashboard { client, _ in
            let (response, body) = try await Self.download(client, "/tables/items/export.ndjson")
            #expect(response.status == .ok)
            #expect(response.headers["Content-Type"] == "application/x-ndjson")
            #expect(response.headers["Content-Disposition"] == "attachment; filename=\"items.ndjson\"")
            let lines = body.split(separator: "\n")
            let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            #expect(objects.map { $0["ID"] as? Int } == (1...23).map { $0 })
            #expect(objects.map { $0["Name"] as? String } == (0..<23).map(Self.name), "JSON keeps the text as it is")
            #expect(objects.allSatisfy { $0["error"] == nil })
        }
    }

    @Test func theRowLimitStopsTheWalkWithALastLine() async throws {
        try await Self.withDashboard(extra: #", "export": {"maxRows": 7}"#) { client, upstream in
            let (_, csv) = try await Self.download(client, "/tables/items/export.csv")
            let records = Self.records(csv)
            #expect(records.dropFirst().dropLast().map { $0[0] } == (1...7).map(String.init))
            #expect(records.last == ["# Rowstream export stopped after 7 rows: the row limit of 7 rows was reached; the table has more rows."])
            #expect(upstream.requests.count == 2, "the walk stopped at the limit: \(upstream.requests.map(\.target))")
            let (_, ndjson) = try await Self.download(client, "/tables/items/export.ndjson")
            let last = try #require(try JSONSerialization.jsonObject(with: Data(ndjson.split(separator: "\n").last!.utf8)) as? [String: Any])
            #expect(last["limit"] as? Int == 7 && last["rows"] as? Int == 7)
            #expect((last["error"] as? String)?.contains("row limit") == true)
            #expect(ndjson.split(separator: "\n").count == 8)
        }
        #expect(throws: ConfigError.self) {
            try ConfigFile.parse(Array(Self.config(port: 9, extra: #", "export": {"maxRows": 0}"#).utf8), file: "x", environment: [:])
        }
    }

    @Test func anUpstreamErrorMidwayEndsTheFileWithAnErrorLine() async throws {
        try await Self.withDashboard(failAt: 10) { client, _ in
            let (response, csv) = try await Self.download(client, "/tables/items/export.csv")
            #expect(response.status == .ok, "the head went out before the failure")
            let records = Self.records(csv)
            #expect(records.dropFirst().dropLast().map { $0[0] } == (1...9).map(String.init))
            let last = try #require(records.last?.first)
            #expect(records.last?.count == 1)
            #expect(last.hasPrefix("# Rowstream export stopped after 9 rows: Loading rows failed"), "\(last)")
            #expect(!last.contains("127.0.0.1"), "the message names no URL")
            let (_, ndjson) = try await Self.download(client, "/tables/items/export.ndjson")
            let lines = ndjson.split(separator: "\n")
            #expect(lines.count == 10)
            let error = try #require(try JSONSerialization.jsonObject(with: Data(lines.last!.utf8)) as? [String: Any])
            #expect((error["error"] as? String)?.contains("Loading rows failed") == true && error["rows"] as? Int == 9)
            #expect(error["limit"] == nil)
        }
    }

    @Test func theControlsChoiceAppliesAndIsWhitelisted() async throws {
        let controls = #", "controls": [{"parameter": "sort", "options": [{"value": ""}, {"value": "name"}]}]"#
        try await Self.withDashboard(extra: controls) { client, upstream in
            let (refused, _) = try await Self.download(client, "/tables/items/export.csv?p.sort=evil")
            #expect(refused.status == .badRequest)
            #expect(upstream.requests.isEmpty, "nothing reached the upstream")
            let (response, _) = try await Self.download(client, "/tables/items/export.csv?p.sort=name")
            #expect(response.status == .ok)
            #expect(!upstream.requests.isEmpty && upstream.requests.allSatisfy { $0.query["sort"] == "name" },
                    "\(upstream.requests.map(\.target))")
        }
    }

    @Test func anExportSharesThePagesAViewerFetched() async throws {
        try await Self.withDashboard { client, upstream in
            let stream = try #require(await client.get("/tables/items/stream").stream)
            _ = try await stream.next(named: "rows")
            stream.close()
            #expect(upstream.requests.count == 1)
            _ = try await Self.download(client, "/tables/items/export.csv")
            let offsets = upstream.requests.map { $0.query["offset"] ?? "0" }
            #expect(offsets.filter { $0 == "0" }.count == 1, "the first page came from the cache: \(offsets)")
            #expect(offsets.count == 5)
        }
    }

    /// The walk never runs ahead of the writes: each write happens before the next page is fetched, and at most one
    /// batch of rows is held at once, however long the table.
    @Test func memoryIsOneBatchAndTheWalkWaitsForTheWrites() async throws {
        let upstream = try Self.upstream(count: 203)
        defer { upstream.stop() }
        let config = try ConfigFile.parse(Array(Self.config(port: upstream.port).utf8), file: "export.json",
                                          environment: [:])
        let table = TableFactory.make(config.tables[0], client: try UpstreamClient())
        var export = TableExport(table: table, format: .csv)
        export.chunkBytes = 1  // a write per row
        let writes = Lock<[(rowsBefore: Int, fetches: Int)]>([])
        let outcome = await export.run(table.loader(for: RowRequest())) { _ in
            let fetches = upstream.requests.count
            writes.withLock { $0.append(($0.count, fetches)) }
            return true
        }
        #expect(outcome.rows == 203 && outcome.stopped == nil)
        #expect(outcome.peakRowsHeld <= Self.batchSize, "rows held at once: \(outcome.peakRowsHeld)")
        let log = writes.withLock { $0 }
        #expect(log.count == 203)
        for (row, write) in log.enumerated() {
            // Row r (write r: the header goes with row 0) is on page 0 (r < 5) or page (r - 5) / 4 + 1 (each later page repeats one item, which
            // the walk drops): only the pages up to its own have been fetched when it is written.
            let page = row < Self.batchSize ? 0 : (row - Self.batchSize) / (Self.batchSize - 1) + 1
            #expect(write.fetches <= page + 1, "row \(row) written after \(write.fetches) fetches")
        }
        #expect(log.last?.fetches == upstream.requests.count)
    }
}
