import Dashboard
import Foundation
import HTTPServer
import HTTPServerTesting
import Redis
import RowstreamKit
import Sealing
import TestSupport
import Testing

/// Issue 29, part 1, in one process: two dashboards with one key file share a real redis-server. A viewer's stream is
/// on the first; its demands reach the second (as a round-robin balancer sends them), which hands them to the first
/// through Redis (docs/SCALING.md, "Any instance answers any request").
@Suite("Any instance answers any request", .serialized)
struct AnyInstanceTests {
    static func instance(redis: RedisServerProcess, keyFile: String) throws -> Dashboard {
        var configuration = DashboardConfiguration()
        configuration.server.port = 0
        configuration.server.eventLoopCount = 1
        configuration.redis = RedisURL("unix://" + redis.socketPath)
        configuration.secretFile = keyFile
        configuration.redisCommandTimeout = .seconds(10)   // a busy machine is not a slow Redis
        configuration.batchSize = 10
        configuration.demo.itemCount = 60
        configuration.demo.latency = .milliseconds(1)
        return try Dashboard.inProcess(configuration)
    }

    @Test("next, Turbo's GET next and reload on another instance are done by the session's; a forged demand is not; the owner gone: 204 ended")
    func demandsReachTheOwner() async throws {
        let redis = try await RedisServerProcess.start()
        let keyFile = try HostileRedisTests.keyFile()
        let owner = try Self.instance(redis: redis, keyFile: keyFile)
        let other = try Self.instance(redis: redis, keyFile: keyFile)
        defer { other.shutdown() }
        let one = InProcessClient(owner.responder), two = InProcessClient(other.responder)
        let writer = try RedisClient(configuration: RedisConfiguration(address: .unix(path: redis.socketPath),
                                                                       commandTimeout: .seconds(10)))
        // Both relays subscribe at start, in the background: wait for their two channels.
        #expect(await eventually {
            let channels = try? await writer.send("PUBSUB", "CHANNELS", "{rowstream}:demands:*")
            return channels?.elements?.count == 2
        })

        let stream = try #require(await one.get("/tables/customers/stream").stream)
        defer { stream.close() }
        let session = try await stream.next(named: "session").event
        let urls = try #require(try JSONSerialization.jsonObject(with: Data(session.data.utf8)) as? [String: Any])
        let next = try #require(urls["next"] as? String), reload = try #require(urls["reload"] as? String)
        _ = try await stream.next(named: "rows")

        // POST next on the other instance: 202, and the batch comes on the owner's stream.
        #expect(await two.post(next).status == .accepted)
        _ = try await stream.next(named: "rows")

        // A demand written straight into Redis under another key (a Redis writer without the operator's key): dropped
        // and counted, never done. Then a real reload through the other instance: the stream's next events are its
        // `reset` and first rows, no reload before it.
        let id = try #require(SessionID(String(next.split(separator: "/")[3])))   // /tables/customers/sessions/ID/next
        let forged = RelayMessage.encode(RelayMessage.Demand(
            addressee: id.instance, sender: 1, request: 1,
            body: RelayedDemand(kind: .reload, table: "customers", session: id)), key: StoreKey.random())
        #expect(try await writer.publish(RedisArgument(forged), to: RedisArgument(channel(id.instance))) == 1)
        await writer.shutdown()
        #expect(await eventually { await HostileRedisTests.metric(one, "rowstream_demands_unverified_total") == 1 })
        let frame = await two.get(next, headers: ["Turbo-Frame": "more"])
        #expect(frame.status == HTTPStatus.ok && frame.text == "<turbo-frame id=\"more\"></turbo-frame>")
        #expect(frame.headers["Rowstream-Session"] == nil)
        let third = try await Self.nextEvent(stream)
        #expect(third == "rows", "Turbo's next done by the owner, and nothing forged before it: \(third ?? "none")")
        #expect(await two.post(reload).status == .accepted)
        #expect(try await Self.nextEvent(stream) == "reset")

        let metrics = await two.get("/metrics").text
        #expect(metrics.contains("rowstream_demands_forwarded_total{outcome=\"accepted\"} 3"), "\(metrics)")

        // The owner stops (its relay leaves Redis): the other answers its sessions' demands as ended, at once.
        owner.shutdown()
        #expect(await eventually { await two.post(next).headers["Rowstream-Session"] == "ended" })
        let ended = await two.post(next)
        #expect(ended.status == HTTPStatus.noContent && ended.headers["Rowstream-Session"] == "ended")
        try await redis.kill()
    }

    /// The name of the stream's next event other than `loading` and `heartbeat`.
    private static func nextEvent(_ stream: InProcessStream) async throws -> String? {
        for _ in 0..<100 {
            guard let event = try await stream.nextEvent() else { return nil }
            if event.event != "loading" && event.event != "heartbeat" { return event.event }
        }
        return nil
    }

    /// The channel instance `instance` reads (as `RedisDemandRelay` names it).
    private func channel(_ instance: UInt32) -> String {
        "{rowstream}:demands:" + String(format: "%08x", instance)
    }
}
