import Foundation
import Redis
import Testing
import TestSupport

/// Pub/sub and stream delivery against a live redis-server (unix socket), including across a server restart.
@Suite struct RedisDeliveryTests {
    private func client(_ path: String, poolSize: Int = 1) throws -> RedisClient {
        try testClient(path, poolSize: poolSize)
    }

    @Test func subscriptionDeliversAndResubscribesAfterARestart() async throws {
        let server = try await RedisServerProcess.start()
        let redis = try client(server.socketPath)
        defer { Task { await redis.shutdown() } }
        let subscription = redis.subscribe(to: ["changes"])
        let events = Recorder(subscription.events)
        let channel = Array("changes".utf8)
        #expect(await eventually { events.all == [.subscribed(channel: channel)] })
        let payload: [UInt8] = [0, 1, 0xFF, 13, 10, 42]
        #expect(try await redis.publish(RedisArgument(payload), to: "changes") == 1)
        #expect(try await redis.publish("other", to: "elsewhere") == 0)
        #expect(await eventually { events.all.count == 2 })
        #expect(events.all.last == .message(channel: channel, payload: payload))

        try await server.restart()
        // Told of the gap, subscribed again by itself, and delivering again.
        #expect(await eventually { events.all.suffix(2) == [.disconnected, .subscribed(channel: channel)] })
        #expect(await eventually { (try? await redis.publish("again", to: "changes")) == 1 })
        #expect(await eventually { events.all.last == .message(channel: channel, payload: Array("again".utf8)) })
        #expect(subscription.droppedCount == 0)
        subscription.cancel()
        #expect(await eventually { (try? await redis.publish("gone", to: "changes")) == 0 })
    }

    @Test func blockingStreamReadOnADedicatedConnection() async throws {
        let server = try await RedisServerProcess.start()
        let redis = try client(server.socketPath, poolSize: 1)
        defer { Task { await redis.shutdown() } }
        let reader = redis.makeDedicatedConnection()
        // Nothing new within the block: an empty result, not an error.
        #expect(try await reader.streamRead([("live", "0-0")], block: .milliseconds(50)).isEmpty)

        let read = Task { try await reader.streamRead([("live", "0-0")], count: 10, block: .seconds(60)) }
        // The blocked read holds only its own connection: the pool (one connection) still answers.
        #expect(await eventually { await isBlocked(in: "xread", redis) })
        #expect(try await redis.send("PING") == .simpleString("PONG"))
        let id = try await redis.streamAdd("live", fields: [RedisStreamField("row", [0, 0xFF]),
                                                           RedisStreamField("epoch", Array("7".utf8))],
                                           maxLength: 1000)
        let batches = try await read.value
        #expect(batches == [RedisStreamBatch(stream: Array("live".utf8), entries: [
            RedisStreamEntry(id: id, fields: [RedisStreamField("row", [0, 0xFF]),
                                              RedisStreamField("epoch", Array("7".utf8))]),
        ])])
        #expect(batches.first?.entries.first?.value(of: "epoch") == Array("7".utf8))

        // Trimming keeps at least MAXLEN entries (approximately: whole nodes).
        for index in 0..<300 {
            try await redis.streamAdd("trimmed", fields: [RedisStreamField("i", Array("\(index)".utf8))],
                                      maxLength: 10)
        }
        let length = try await redis.send("XLEN", "trimmed").integer ?? 0
        #expect(length >= 10 && length < 300)
        await reader.close()
        await #expect(throws: RedisError.shutdown) { try await reader.send("PING") }
    }
}

extension RedisDeliveryTests {
    @Test func channelsAndPatternsAddedAndRemovedWhileRunning() async throws {
        let server = try await RedisServerProcess.start()
        let redis = try client(server.socketPath)
        defer { Task { await redis.shutdown() } }
        let subscription = redis.subscribe(patterns: ["landed:*"])
        let events = Recorder(subscription.events)
        #expect(await eventually { events.all == [.subscribed(channel: Array("landed:*".utf8))] })
        #expect(try await redis.publish("page-1", to: "landed:a") == 1)
        #expect(await eventually {
            events.all.last == .message(channel: Array("landed:a".utf8), payload: Array("page-1".utf8))
        })

        subscription.subscribe(to: ["refresh", "refresh"])  // a repeat is ignored
        #expect(await eventually { events.all.last == .subscribed(channel: Array("refresh".utf8)) })
        #expect(try await redis.publish("tick", to: "refresh") == 1)
        subscription.unsubscribe(fromPatterns: ["landed:*"])
        #expect(await eventually { (try? await redis.send("PUBSUB", "NUMPAT")) == .integer(0) })
        #expect(try await redis.publish("page-2", to: "landed:b") == 0)

        // After a restart it subscribes again to what it has now: the channel, not the removed pattern.
        try await server.restart()
        #expect(await eventually {
            events.all.suffix(2) == [.disconnected, .subscribed(channel: Array("refresh".utf8))]
        })
        #expect(await eventually { redis.isAvailable })  // the pool reconnects on its own backoff
        #expect(try await redis.send("PUBSUB", "NUMPAT") == .integer(0))
        #expect(try await redis.publish("tock", to: "refresh") == 1)
        let tock = RedisSubscriptionEvent.message(channel: Array("refresh".utf8), payload: Array("tock".utf8))
        #expect(await eventually { events.all.last == tock })
        let messages = events.all.compactMap { event -> String? in
            if case .message(_, let payload) = event { return String(decoding: payload, as: UTF8.self) }
            return nil
        }
        #expect(messages == ["page-1", "tick", "tock"])
        subscription.cancel()
    }
}
