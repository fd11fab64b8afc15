import Dashboard
import Foundation
import HTTPServer
import HTTPServerTesting
import Redis
import RowstreamKit
import Sealing
import TestSupport
import Testing

/// Issue 26, item 3, end to end: two instances with one key file share a real redis-server; a forwarding table
/// (each viewer's own upstream credential) caches each identity's page in it. Whoever can write to Redis copies
/// Alice's page onto Bob's key: the other instance serves Bob his own rows (a miss, counted), never Alice's.
@Suite("A Redis you cannot trust", .serialized)
struct HostileRedisTests {
    /// A key file (0600) in a temporary folder, for every instance of one test.
    static func keyFile() throws -> String {
        let folder = try makeTemporaryDirectory()
        let path = folder + "/secret"
        try (SealingKeyFile.newKey() + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        return path
    }

    /// The table `mine` forwarding the viewer's `X-Upstream-Key`, all of it on one page (one key per identity).
    static func config(port: UInt16, redis: String, keyFile: String) -> String {
        let forward = "{\"headers\": {\"X-Api-Key\": \"Key ${viewer.header.X-Upstream-Key}\"}}"
        let table = ViewerCredentials.table("mine", port: port, forward: forward)
            .replacingOccurrences(of: "\"batchSize\": \(ViewerCredentials.batchSize)", with: "\"batchSize\": 50")
        return "{\"redis\": \"\(redis)\", \"secretFile\": \"\(keyFile)\", \"tables\": [\(table)]}"
    }

    static func instance(_ text: String) throws -> Dashboard {
        var configuration = DashboardConfiguration()
        configuration.server.port = 0
        configuration.server.eventLoopCount = 1
        configuration.redisCommandTimeout = .seconds(10)   // a busy machine is not a slow Redis
        return try Dashboard.inProcess(configuration, config: try ConfigFile.parse(Array(text.utf8), file: "c.json",
                                                                                  environment: [:]))
    }

    @Test("Alice's page copied onto Bob's key in Redis: Bob is served his own rows, the copy counted as unverified")
    func aCopiedValueCrossesNoIdentity() async throws {
        let redis = try await RedisServerProcess.start()
        let upstream = try ViewerCredentials.Upstream()
        defer { upstream.server.stop() }
        let text = Self.config(port: upstream.server.port, redis: "unix://" + redis.socketPath, keyFile: try Self.keyFile())
        let first = try Self.instance(text), second = try Self.instance(text)
        defer { first.shutdown(); second.shutdown() }
        let client = try RedisClient(configuration: RedisConfiguration(address: .unix(path: redis.socketPath),
                                                                       commandTimeout: .seconds(10)))
        defer { Task { await client.shutdown() } }
        let one = InProcessClient(first.responder), two = InProcessClient(second.responder)
        #expect(await eventually {
            let up = [await Self.metric(one, "rowstream_redis_up"), await Self.metric(two, "rowstream_redis_up")]
            return up == [1, 1]
        })

        // Alice, then Bob, read the table on the first instance: each identity's page lands in Redis.
        let alice = try await ViewerCredentials.read(one, "mine", headers: ViewerCredentials.headers("alice"))
        #expect(alice.html.contains("row of alice 12"))
        let aliceKey = try #require(try await Self.pageKeys(client).first)
        _ = try await ViewerCredentials.read(one, "mine", headers: ViewerCredentials.headers("bob"))
        let keys = try await Self.pageKeys(client)
        #expect(keys.count == 2, "one page per identity: \(keys)")
        let bobKey = try #require(keys.first { $0 != aliceKey })
        #expect(!aliceKey.contains("alice") && !bobKey.contains("bob"))

        // A Redis writer copies Alice's page onto Bob's key.
        let stolen = try #require(try await client.get(RedisArgument(aliceKey)))
        #expect(String(decoding: stolen, as: UTF8.self).contains("row of alice"))
        try await client.set(RedisArgument(bobKey), to: RedisArgument(stolen), expiresIn: .seconds(600))

        // Bob on the other instance (nothing in its memory): his own rows from the upstream.
        let bob = try await ViewerCredentials.read(two, "mine", headers: ViewerCredentials.headers("bob"))
        #expect(bob.html.contains("row of bob 12") && !bob.html.contains("alice"))
        #expect(upstream.requests["bob 0"] == 2, "fetched again for Bob: the copy was a miss")
        #expect(await Self.metric(two, "rowstream_shared_unverified_values_total") >= 1)
        #expect(try await client.get(RedisArgument(bobKey)) != stolen, "Bob's key holds Bob's page again")
        try await redis.kill()
    }

    /// The shared pages' keys in Redis.
    static func pageKeys(_ client: RedisClient) async throws -> [String] {
        let reply = try await client.send("KEYS", "rowstream:page:v2:mine:*")
        return (reply.elements ?? []).compactMap(\.string)
    }

    /// The value of the metric line `name` on `client`'s dashboard (0 where absent).
    static func metric(_ client: InProcessClient, _ name: String) async -> Int {
        let body = await client.get("/metrics").text
        let line = body.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Int($0.dropFirst(name.count + 1)) } ?? 0
    }
}
