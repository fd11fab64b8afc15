@testable import Dashboard
import Redis
import RowstreamKit
import TestSupport
import Sealing
import Testing

/// The live channel on a real `redis-server`: the lease, the publish script's fencing (only the holder, only on the
/// head it read), epochs and sequences, the log's entries, and what it does with values it cannot read.
@Suite("Live channel on Redis")
struct RedisLiveChannelTests {
    static func rows(_ names: String...) -> LiveHeadRows {
        LiveHeadRows(rows: names.map { LiveRow(key: $0, html: Array("<tr>\($0)</tr>".utf8)) }, isWholeList: false)
    }

    @Test("lease: one holder, renewed by it, released only by it; publish only by the holder on the head it read")
    func leaseAndFencedPublish() async throws {
        let redis = try await RedisServerProcess.start()
        let client = try testClient(redis.socketPath)
        defer { Task { await client.shutdown() } }
        let channel = RedisLiveCluster(client: client, storeKey: testStoreKey).channel(table: "t")
        #expect(try await channel.holdLease("A", for: .seconds(30)))
        #expect(try await !channel.holdLease("B", for: .seconds(30)))
        #expect(try await channel.holdLease("A", for: .seconds(30)), "renewed")
        try await channel.releaseLease("B")
        #expect(try await !channel.holdLease("B", for: .seconds(30)), "only the holder releases")

        #expect(try await channel.head() == nil)
        #expect(try await channel.publish(Self.rows("x"), answering: [], owner: "B", base: nil) == nil, "not the holder")
        let first = try #require(try await channel.publish(Self.rows("x"), answering: [], owner: "A", base: nil))
        #expect(first.sequence == 1)
        #expect(try await channel.publish(Self.rows("y"), answering: [], owner: "A", base: nil) == nil, "a head exists")
        let second = try #require(try await channel.publish(Self.rows("x", "y"), answering: ["r1"], owner: "A", base: first))
        #expect(second.sequence == 2 && second.epoch == first.epoch)
        #expect(try await channel.publish(Self.rows("z"), answering: [], owner: "A", base: first) == nil, "a stale base")
        #expect(try await channel.head() == LiveHead(rows: Self.rows("x", "y"), position: second))

        try await channel.requestRefresh("r2")
        let entries = try await channel.read(after: nil)
        #expect(entries == [
            .head(LiveHead(rows: Self.rows("x"), position: first), answers: []),
            .head(LiveHead(rows: Self.rows("x", "y"), position: second), answers: ["r1"]),
            .refreshRequest("r2", cursor: try #require(entries.last?.cursor)),
        ])
        #expect(try await channel.read(after: entries.last?.cursor) == [], "a bounded wait, then nothing")

        try await channel.releaseLease("A")
        #expect(try await channel.holdLease("B", for: .seconds(30)))

        // Redis loses everything: a new epoch starts at 1.
        _ = try await client.send("FLUSHALL")
        #expect(try await channel.holdLease("B", for: .seconds(30)))
        let fresh = try #require(try await channel.publish(Self.rows("n"), answering: [], owner: "B", base: nil))
        #expect(fresh.sequence == 1 && fresh.epoch != first.epoch)
        try await redis.kill()
    }

    @Test("a log read outlasts a Redis stall shorter than the command timeout: no outage, the entry arrives")
    func logReadOutlastsAStall() async throws {
        let redis = try await RedisServerProcess.start()
        let client = try testClient(redis.socketPath, commandTimeout: .seconds(30))
        defer { Task { await client.shutdown() } }
        let channel = RedisLiveCluster(client: client, storeKey: testStoreKey).channel(table: "t")
        try await channel.requestRefresh("r1")
        let first = try await channel.read(after: nil)
        #expect(first.count == 1)
        // Paused for longer than the read's block and a second: the reply waits, the read does not fail.
        redis.pause()
        let read = Task { try await channel.read(after: first.last?.cursor) }
        try await Task.sleep(for: .seconds(3))
        redis.pause(false)
        let writer = try testClient(redis.socketPath)
        defer { Task { await writer.shutdown() } }
        try await RedisLiveCluster(client: writer, storeKey: testStoreKey).channel(table: "t").requestRefresh("r2")
        var entries = try await read.value
        // The read in flight may have come back empty (its block ran out once Redis ran again): read on.
        for _ in 0..<10 where entries.isEmpty { entries = try await channel.read(after: first.last?.cursor) }
        #expect(entries.count == 1)
        if case .refreshRequest(let request, _) = entries.first {
            #expect(request == "r2")
        } else {
            Issue.record("expected the request r2, read \(entries)")
        }
        #expect(client.statistics.commandsTimedOut == 0)
        try await redis.kill()
    }

    @Test("a head or log entry it cannot read: the head counts as empty, the entry is skipped")
    func unreadableValues() async throws {
        let redis = try await RedisServerProcess.start()
        let client = try testClient(redis.socketPath)
        defer { Task { await client.shutdown() } }
        let channel = RedisLiveCluster(client: client, storeKey: testStoreKey).channel(table: "t")
        _ = try await client.send("HSET", "{rowstream:live:t}:head", "epoch", "e", "seq", "4", "id", "1-0", "rows", "junk")
        let head = try #require(try await channel.head())
        #expect(head.rows.rows.isEmpty && head.position == LiveHeadPosition(epoch: "e", sequence: 4, cursor: "1-0"))
        let id = try await client.streamAdd("{rowstream:live:t}:log", fields: [
            RedisStreamField("k", Array("c".utf8)), RedisStreamField("epoch", Array("e".utf8)),
            RedisStreamField("seq", Array("5".utf8)), RedisStreamField("rows", [9, 9]),
        ])
        let other = try await client.streamAdd("{rowstream:live:t}:log", fields: [RedisStreamField("k", Array("?".utf8))])
        #expect(try await channel.read(after: "0-0") == [.unreadable(cursor: id), .unreadable(cursor: other)])
        try await redis.kill()
    }
}

/// Issue 26, item 3, for live tables: a head's rows are bound to their table under the operator's key.
@Suite("Live rows on Redis bound to their table")
struct RedisLiveRowsBindingTests {
    @Test("another table's rows copied into this table's head or log, or rows under another key: none, counted")
    func rowsCopiedFromAnotherTableAreNotRead() async throws {
        let redis = try await RedisServerProcess.start()
        let client = try testClient(redis.socketPath)
        defer { Task { await client.shutdown() } }
        let cluster = RedisLiveCluster(client: client, storeKey: testStoreKey)
        let payroll = cluster.channel(table: "payroll"), open = cluster.channel(table: "open")
        #expect(try await payroll.holdLease("A", for: .seconds(30)))
        _ = try #require(try await payroll.publish(RedisLiveChannelTests.rows("salary"), answering: [], owner: "A", base: nil))
        #expect(try await payroll.head()?.rows == RedisLiveChannelTests.rows("salary"), "its own rows read back")

        // A Redis writer copies payroll's rows into the open table's head and log.
        let stolen = try #require(try await client.send("HGET", "{rowstream:live:payroll}:head", "rows").bytes)
        _ = try await client.send("HSET", "{rowstream:live:open}:head", "epoch", "e", "seq", "1", "id", "1-0",
                                  RedisArgument("rows"), RedisArgument(stolen))
        #expect(try await open.head()?.rows.rows.isEmpty == true)
        let id = try await client.streamAdd("{rowstream:live:open}:log", fields: [
            RedisStreamField("k", Array("c".utf8)), RedisStreamField("epoch", Array("e".utf8)),
            RedisStreamField("seq", Array("2".utf8)), RedisStreamField("rows", stolen),
        ])
        #expect(try await open.read(after: "0-0") == [.unreadable(cursor: id)])
        // The same rows under another operator key (an attacker's, or before a rotation): not read either.
        let other = RedisLiveCluster(client: client, storeKey: StoreKey.random()).channel(table: "payroll")
        #expect(try await other.head()?.rows.rows.isEmpty == true)
        #expect(cluster.unverified.load(ordering: .relaxed) == 2)
        try await redis.kill()
    }
}

/// Issue 26, item 6: the refresh limit's bucket is one per table for the whole cluster, on Redis.
@Suite("Refresh bucket on Redis")
struct RedisRefreshBucketTests {
    @Test("two instances draw on one bucket per table; another table has its own; a value nobody honest wrote resets it")
    func oneBucketPerTableForTheCluster() async throws {
        let redis = try await RedisServerProcess.start()
        let one = try testClient(redis.socketPath), two = try testClient(redis.socketPath)
        defer { Task { await one.shutdown(); await two.shutdown() } }
        let limit = RefreshLimit(burst: 2, every: .seconds(60))
        let first = RedisLiveCluster(client: one, storeKey: testStoreKey).channel(table: "t"), second = RedisLiveCluster(client: two, storeKey: testStoreKey).channel(table: "t")
        #expect(try await first.takeRefreshToken(limit) == nil)
        #expect(try await second.takeRefreshToken(limit) == nil)
        let wait = try #require(try await first.takeRefreshToken(limit), "the burst is the cluster's, not each instance's")
        #expect(wait > .seconds(50) && wait <= .seconds(60))
        #expect(try await second.takeRefreshToken(limit) != nil)
        #expect(try await RedisLiveCluster(client: two, storeKey: testStoreKey).channel(table: "other").takeRefreshToken(limit) == nil)

        // A Redis writer sets the bucket a year ahead: read as full, not as a year's refusal.
        _ = try await one.send("SET", "{rowstream:live:t}:refresh", "99999999999999999999")
        #expect(try await first.takeRefreshToken(limit) == nil)
        try await redis.kill()
    }
}
