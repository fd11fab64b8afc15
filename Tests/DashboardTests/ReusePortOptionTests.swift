@testable import Dashboard
import Glibc
import TestSupport
import Testing

/// `--reuse-port` (docs/SCALING.md, "SO_REUSEPORT: no proxy at all"): several processes on one port, no proxy; only
/// with a Redis (the relay hands a viewer's requests to the process holding its stream).
@Suite("--reuse-port", .serialized)
struct ReusePortOptionTests {
    @Test("--reuse-port without --redis (or the config's redis) is refused at start, naming both")
    func refusedWithoutRedis() throws {
        var configuration = DashboardConfiguration()
        _ = try CommandLineOptions.parse(["--reuse-port", "--port", "0"], environment: [:], into: &configuration)
        let error = #expect(throws: DashboardError.self) { _ = try Dashboard.inProcess(configuration) }
        #expect(error == DashboardError.reusePortWithoutRedis)
        #expect(error?.description.hasPrefix("--reuse-port needs --redis (or the config's redis)") == true)
    }

    @Test("two processes listen on one port with --reuse-port (without it the second cannot; without --redis none may); one killed, the other serves it")
    func twoProcessesOnOnePort() async throws {
        var configuration = DashboardConfiguration()
        #expect(!configuration.server.reusePort)
        _ = try CommandLineOptions.parse(["--reuse-port", "--port", "0"], into: &configuration)
        #expect(configuration.server.reusePort)

        try #require(RowstreamProcess.isBuilt, "build the rowstream product first")
        let (refused, _, why) = try await RowstreamProcess.run(
            ["--port", "0", "--public", publicDirectory, "--demo-items", "20", "--reuse-port"])
        #expect(refused != 0 && why.contains("--reuse-port needs --redis"), "\(why)")

        let redis = try await RedisProcess.start()
        do {
            try await twoProcesses(redis: redis.url)
        } catch {
            await redis.stop()
            throw error
        }
        await redis.stop()
    }

    private func twoProcesses(redis: String) async throws {
        let base = ["--public", publicDirectory, "--demo-items", "20", "--reuse-port", "--redis", redis]
        let first = try await RowstreamProcess.start(["--port", "0"] + base)
        defer { first.kill() }
        let (status, _, message) = try await RowstreamProcess.run(
            ["--port", String(first.port), "--public", publicDirectory, "--demo-items", "20"])
        #expect(status != 0 && message.contains("bind"), "without --reuse-port the port is taken: \(message)")
        let second = try await RowstreamProcess.start(["--port", String(first.port)] + base)
        defer { second.kill() }
        #expect(second.port == first.port)

        first.kill()
        #expect(await first.exitStatus(within: .seconds(20)) == SIGKILL)
        let health = try await TestConnection(port: second.port).exchange("GET", "/healthz")
        #expect(health.status == 200 && health.body == "ok\n")
    }
}
