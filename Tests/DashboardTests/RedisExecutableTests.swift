import Foundation
import TestSupport
import Testing

/// `rowstream --redis` as an operator runs it: Redis absent at start is no failure, and its return is noticed.
@Suite("rowstream --redis")
struct RedisExecutableTests {
    @Test("started while Redis is down: serves, says so once; Redis starts: shares, says so once")
    func startsWithoutRedisAndJoinsWhenItComes() async throws {
        try #require(RowstreamProcess.isBuilt, "build the rowstream product first")
        let redis = try await RedisServerProcess.start()
        try await redis.kill()   // its socket path, with nobody listening
        let server = try await RowstreamProcess.start(
            ["--port", "0", "--demo-items", "30", "--demo-latency-ms", "0", "--public", publicDirectory,
             "--redis", "unix://" + redis.socketPath])
        defer { server.kill() }

        #expect(try await eventually { try await fetch(server.port, "GET", "/metrics").body.contains("\nrowstream_redis_up 0") })
        let stream = try await SSEClient(port: server.port, path: "/tables/customers/stream")
        #expect(rowKeys(try await stream.next(named: "rows").event.data).first == "1", "served without Redis")
        stream.connection.closeNow()

        try await redis.restart()
        #expect(try await eventually { try await fetch(server.port, "GET", "/metrics").body.contains("\nrowstream_redis_up 1") })

        server.terminate()
        let errors = try await server.errors()
        #expect(errors.components(separatedBy: "is down: serving from this instance's own cache").count == 2, "\(errors)")
        #expect(errors.components(separatedBy: "is up: pages are shared").count == 2, "\(errors)")
    }
}
