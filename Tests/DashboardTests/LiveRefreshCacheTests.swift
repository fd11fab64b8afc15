import Dashboard
import HTTPServer
import HTTPServerTesting
import TestSupport
import Testing

/// A live refresh puts the head it read into the table's page cache before its changes go out (docs/PROTOCOL.md,
/// "Live updates"): a viewer who opens a stream after a change was sent, within the cache's TTL (here 600 s), starts
/// from the head that change came from, and gets each later change exactly once. For a plain table (one cache) and a
/// table forwarding each viewer's credential (a cache per identity), over ``ViewerCredentials``'s upstream.
@Suite struct LiveRefreshCacheTests {
    typealias Fixture = ViewerCredentials

    static func config(port: UInt16) -> String {
        func table(_ name: String, _ extra: String) -> String {
            """
            {"name": "\(name)", "batchSize": \(Fixture.batchSize),
             "request": {"url": "http://127.0.0.1:\(port)/v1/rows"\(extra)},
             "items": "results", "key": "id",
             "columns": [{"title": "ID", "path": "id"}, {"title": "Name", "path": "name"}],
             "pagination": {"style": "offset", "totalPath": "total"},
             "cache": {"ttlSeconds": 600, "prefetch": false}, "live": {}}
            """
        }
        let forwarded = table("livemine", "").replacingOccurrences(
            of: "\"items\"", with: "\"forward\": {\"headers\": {\"X-Api-Key\": \"Key ${viewer.header.X-Upstream-Key}\"}}, \"items\"")
        return """
        {"tables": [\(table("livecached", ", \"headers\": {\"X-Api-Key\": \"Key \(Fixture.credential("carol"))\"}")),
                    \(forwarded)]}
        """
    }

    /// A new stream of `table`: its first rows.
    static func open(_ client: InProcessClient, _ table: String, as user: String) async throws
        -> (stream: InProcessStream, rows: String)
    {
        let response = await client.get("/tables/\(table)/stream", headers: Fixture.headers(user))
        let stream = try #require(response.stream, "\(response.status): \(response.text)")
        return (stream, try await stream.next(named: "rows").event.data)
    }

    @Test(arguments: [("livecached", "carol"), ("livemine", "alice")])
    func aViewerAfterARefreshStartsFromItsHeadAndGetsEachLaterChangeOnce(table: String, user: String) async throws {
        try await withInProcessDashboard(over: try Fixture.Upstream(), config: { Self.config(port: $0.server.port) },
                                         file: "live-cache.json") { client, upstream in
            let (early, firstRows) = try await Self.open(client, table, as: user)
            defer { early.close() }
            #expect(firstRows.contains("row of \(user) 1") && !firstRows.contains("new of"), "\(firstRows)")

            upstream.bump(user)
            let refresh = await client.post("/tables/\(table)/refresh", headers: Fixture.headers(user))
            let answer = try jsonObject(refresh.text)
            #expect(refresh.status == .ok && answer["inserted"] as? Int == 1, "\(refresh.text)")
            // The change was sent (the viewer who was there has it) ...
            #expect(try await early.next(named: "insert").event.data.contains("new of \(user) 1"))
            let fetched = upstream.requests["\(user) 0"]

            // ... so a viewer who comes now, within the TTL, starts from the head it came from: the cache's page,
            // which the refresh put there (no upstream request).
            let (late, lateRows) = try await Self.open(client, table, as: user)
            defer { late.close() }
            #expect(lateRows.contains("new of \(user) 1"), "the refreshed head, not the cached one: \(lateRows)")
            #expect(upstream.requests["\(user) 0"] == fetched, "\(upstream.requests)")

            // The next change reaches both, once: nothing of the first change comes again.
            upstream.bump(user)
            _ = await client.post("/tables/\(table)/refresh", headers: Fixture.headers(user))
            for stream in [early, late] {
                let (insert, skipped) = try await stream.next(named: "insert")
                #expect(insert.data.contains("new of \(user) 2") && !insert.data.contains("new of \(user) 1"), "\(insert.data)")
                #expect(!skipped.contains { ["insert", "update", "remove", "rows"].contains($0.event) }, "\(skipped.map(\.event))")
            }
        }
    }
}
