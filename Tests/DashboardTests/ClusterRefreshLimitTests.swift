import Dashboard
import Foundation
import HTTPServerTesting
import RowstreamKit
import TestSupport
import Testing

/// Issue 26, item 6: a live table's refresh limit (`refreshBurst`, `refreshPerMinute`) holds for the cluster, not
/// per instance: two instances sharing a redis-server draw on one bucket. Redis down: each instance's own bucket
/// decides (a viewer is never refused because Redis failed).
@Suite("Refresh limit across instances", .serialized)
struct ClusterRefreshLimitTests {
    static func config(port: UInt16, redis: String, keyFile: String) -> String {
        """
        {"redis": "\(redis)", "secretFile": "\(keyFile)", "tables": [
          {"name": "feed", "batchSize": 10,
           "request": {"url": "http://127.0.0.1:\(port)/v1/things", "query": {"phase": "feed"}},
           "items": "results", "key": "id", "columns": [{"path": "id", "format": "number"}, {"path": "name"}],
           "pagination": {"style": "offset", "totalPath": "total"},
           "live": {"refreshBurst": 2, "refreshPerMinute": 1}}]}
        """
    }

    @Test("two instances: two POSTs in all, then 429 on either; Redis killed: each instance's own burst of two")
    func oneBucketForTheCluster() async throws {
        let redis = try await RedisServerProcess.start()
        let upstream = try SharedCacheClusterTests.upstream(held: [:])
        defer { upstream.stop() }
        let text = Self.config(port: upstream.port, redis: "unix://" + redis.socketPath, keyFile: try HostileRedisTests.keyFile())
        let first = try HostileRedisTests.instance(text), second = try HostileRedisTests.instance(text)
        defer { first.shutdown(); second.shutdown() }
        let one = InProcessClient(first.responder), two = InProcessClient(second.responder)
        #expect(await Self.redisUp(one, two, 1))

        var statuses: [Int] = []
        for client in [one, two, one, two] { statuses.append(Int(await client.post("/tables/feed/refresh").status.code)) }
        #expect(statuses == [200, 200, 429, 429], "one bucket of two for the cluster")
        let refused = await HostileRedisTests.metric(one, "rowstream_live_refresh_cluster_refused_total")
            + HostileRedisTests.metric(two, "rowstream_live_refresh_cluster_refused_total")
        #expect(refused == 2)

        try await redis.kill()
        #expect(await Self.redisUp(one, two, 0))
        statuses = []
        for _ in 0..<3 { statuses.append(Int(await one.post("/tables/feed/refresh").status.code)) }
        #expect(statuses == [200, 200, 429], "the instance's own bucket, full: its POSTs went to the cluster's")
        #expect(Int(await two.post("/tables/feed/refresh").status.code) == 200, "and the other's own")
        #expect(await HostileRedisTests.metric(one, "rowstream_live_refresh_local_limit_total") == 3)
    }

    static func redisUp(_ one: InProcessClient, _ two: InProcessClient, _ value: Int) async -> Bool {
        await eventually {
            let up = [await HostileRedisTests.metric(one, "rowstream_redis_up"), await HostileRedisTests.metric(two, "rowstream_redis_up")]
            return up == [value, value]
        }
    }
}
