import Testing
import Dashboard

/// `--dead-peer-seconds`: the TCP user timeout and keepalive on viewers' streams (docs/HARDENING.md).
@Suite("Dead peer option")
struct DeadPeerOptionTests {
    @Test func defaultIsThirtySecondsAndTheFlagSetsOrDisablesIt() throws {
        var configuration = DashboardConfiguration()
        #expect(configuration.deadPeerTimeout == .seconds(30))
        _ = try CommandLineOptions.parse(["--dead-peer-seconds", "5"], into: &configuration)
        #expect(configuration.deadPeerTimeout == .seconds(5))
        _ = try CommandLineOptions.parse(["--dead-peer-seconds", "0"], into: &configuration)
        #expect(configuration.deadPeerTimeout == nil)
        #expect(throws: CommandLineOptions.ParseError.self) {
            try CommandLineOptions.parse(["--dead-peer-seconds", "-1"], into: &configuration)
        }
    }
}
