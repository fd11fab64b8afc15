import Testing
import Dashboard

/// `--dead-peer-seconds`: the TCP user timeout and keepalive on viewers' streams (docs/HARDENING.md).
@Suite("Dead peer option")
struct DeadPeerOptionTests {
    @Test func defaultIsThirtySecondsAndTheFlagSetsOrDisablesIt() throws {
        var configuration = DashboardConfiguration()
        #expect(configuration.server.deadPeerTimeout == .seconds(30))
        _ = try CommandLineOptions.parse(["--dead-peer-seconds", "5"], into: &configuration)
        #expect(configuration.server.deadPeerTimeout == .seconds(5))
        _ = try CommandLineOptions.parse(["--dead-peer-seconds", "0"], into: &configuration)
        #expect(configuration.server.deadPeerTimeout == nil)
        #expect(throws: CommandLineOptions.ParseError.self) {
            try CommandLineOptions.parse(["--dead-peer-seconds", "-1"], into: &configuration)
        }
    }

    @Test func connectionCapFlags() throws {
        var configuration = DashboardConfiguration()
        #expect(configuration.server.maxConnections == nil && configuration.server.maxConnectionsPerAddress == 4_096)
        _ = try CommandLineOptions.parse(["--max-connections", "19000", "--max-connections-per-address", "50000"],
                                         into: &configuration)
        #expect(configuration.server.maxConnections == 19_000 && configuration.server.maxConnectionsPerAddress == 50_000)
        _ = try CommandLineOptions.parse(["--max-connections-per-address", "0"], into: &configuration)
        #expect(configuration.server.maxConnectionsPerAddress == Int.max)
        #expect(throws: CommandLineOptions.ParseError.self) {
            try CommandLineOptions.parse(["--max-connections", "0"], into: &configuration)
        }
    }
}
