import Dashboard
import Foundation
import HTTPServerTesting
import TestSupport
import Testing

/// A live refresh in a cluster (docs/SCALING.md, "Live tables across instances"): two instances share a real
/// redis-server and one key file. The instance that refreshes puts the page in its memory and Redis; another one that
/// has the older first page in its memory drops it when the head comes through the log, before sending the change,
/// so a viewer who opens a stream there afterwards, within the TTL (600 s), starts from the refreshed head (read from
/// Redis, no upstream request) and gets each later change once. The refreshing instance keeps its own copy.
@Suite("Live refresh across instances: the page cache", .serialized)
struct ClusterLiveCacheTests {
    typealias Fixture = ViewerCredentials
    static let table = "livecached"

    static func config(port: UInt16, redis: String, keyFile: String) -> String {
        """
        {"redis": "\(redis)", "secretFile": "\(keyFile)", "tables": [
          {"name": "\(table)", "batchSize": \(Fixture.batchSize),
           "request": {"url": "http://127.0.0.1:\(port)/v1/rows",
                       "headers": {"X-Api-Key": "Key \(Fixture.credential("carol"))"}},
           "items": "results", "key": "id",
           "columns": [{"title": "ID", "path": "id"}, {"title": "Name", "path": "name"}],
           "pagination": {"style": "offset", "totalPath": "total"},
           "cache": {"ttlSeconds": 600, "prefetch": false}, "live": {}}]}
        """
    }

    @Test("B has the old first page in memory, A refreshes: a new viewer on B starts from the new head; A keeps its copy")
    func aViewerOnAnotherInstanceAfterARefreshStartsFromItsHead() async throws {
        let redis = try await RedisServerProcess.start()
        defer { Task { try? await redis.kill() } }
        let upstream = try Fixture.Upstream()
        defer { upstream.server.stop() }
        let text = Self.config(port: upstream.server.port, redis: "unix://" + redis.socketPath,
                               keyFile: try HostileRedisTests.keyFile())
        let first = try HostileRedisTests.instance(text), second = try HostileRedisTests.instance(text)
        defer { first.shutdown(); second.shutdown() }
        let a = InProcessClient(first.responder), b = InProcessClient(second.responder)
        #expect(await ClusterRefreshLimitTests.redisUp(a, b, 1))
        // Both follow the table's log (refreshes are shared).
        #expect(await eventually {
            let shared = [await Self.reports(a, "rowstream_live_tables_alone 0"),
                          await Self.reports(b, "rowstream_live_tables_alone 0")]
            return shared == [true, true]
        })

        // A viewer on each: B's first page is in B's memory (and in Redis, where A's came from).
        let (onB, rowsB) = try await LiveRefreshCacheTests.open(b, Self.table, as: "carol")
        defer { onB.close() }
        let (onA, rowsA) = try await LiveRefreshCacheTests.open(a, Self.table, as: "carol")
        defer { onA.close() }
        for rows in [rowsB, rowsA] { #expect(rows.contains("row of carol 1") && !rows.contains("new of"), "\(rows)") }
        #expect(upstream.requests["carol 0"] == 1, "\(upstream.requests)")

        // A refreshes (it takes the lease: nobody holds it) over a changed upstream head.
        upstream.bump("carol")
        let refresh = await a.post("/tables/\(Self.table)/refresh")
        #expect(refresh.status == .ok && !refresh.text.contains("error"), "\(refresh.status): \(refresh.text)")
        #expect(upstream.requests["carol 0"] == 2, "\(upstream.requests)")
        // The change reached both instances' viewers through the log.
        for stream in [onB, onA] { #expect(try await stream.next(named: "insert").event.data.contains("new of carol 1")) }

        // A viewer on B now, within the TTL: the refreshed head, read from Redis (no upstream request).
        let (lateB, lateRowsB) = try await LiveRefreshCacheTests.open(b, Self.table, as: "carol")
        defer { lateB.close() }
        #expect(lateRowsB.contains("new of carol 1"), "the refreshed head, not B's cached one: \(lateRowsB)")
        #expect(upstream.requests["carol 0"] == 2, "\(upstream.requests)")

        // A viewer on A: the same head, from A's own memory (its copy was not dropped: no read from Redis).
        let hitsBefore = await HostileRedisTests.metric(a, "rowstream_shared_pages_total{outcome=\"hit\"}")
        #expect(hitsBefore >= 1, "A's first viewer read B's page from Redis")
        let (lateA, lateRowsA) = try await LiveRefreshCacheTests.open(a, Self.table, as: "carol")
        defer { lateA.close() }
        #expect(lateRowsA.contains("new of carol 1"), "\(lateRowsA)")
        #expect(await HostileRedisTests.metric(a, "rowstream_shared_pages_total{outcome=\"hit\"}") == hitsBefore)

        // The next change reaches every viewer once: nothing of the first comes again.
        upstream.bump("carol")
        #expect(await a.post("/tables/\(Self.table)/refresh").status == .ok)
        for stream in [onB, lateB, onA, lateA] {
            let (insert, skipped) = try await stream.next(named: "insert")
            #expect(insert.data.contains("new of carol 2") && !insert.data.contains("new of carol 1"), "\(insert.data)")
            #expect(!skipped.contains { ["insert", "update", "remove", "rows"].contains($0.event) }, "\(skipped.map(\.event))")
        }
    }

    /// Whether `client`'s dashboard's `/metrics` has the line `line`.
    static func reports(_ client: InProcessClient, _ line: String) async -> Bool {
        await client.get("/metrics").text.split(separator: "\n").contains { $0 == line }
    }
}
