import Dashboard
import Glibc
import TestSupport
import Testing

/// `--reuse-port` (docs/SCALING.md, "SO_REUSEPORT: no proxy at all"): several processes on one port, no proxy.
@Suite("--reuse-port", .serialized)
struct ReusePortOptionTests {
    @Test("two processes listen on one port with --reuse-port (without it the second cannot); one killed, the other serves it")
    func twoProcessesOnOnePort() async throws {
        var configuration = DashboardConfiguration()
        #expect(!configuration.server.reusePort)
        _ = try CommandLineOptions.parse(["--reuse-port", "--port", "0"], into: &configuration)
        #expect(configuration.server.reusePort)

        try #require(RowstreamProcess.isBuilt, "build the rowstream product first")
        let base = ["--public", publicDirectory, "--demo-items", "20", "--reuse-port"]
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
