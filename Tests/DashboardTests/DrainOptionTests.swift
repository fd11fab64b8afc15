import Testing
import Dashboard

/// The deploy flags (docs/SCALING.md): `--drain-seconds`, `--shutdown-grace-seconds`, `--instance-tag`.
@Suite("Drain options")
struct DrainOptionTests {
    @Test func defaultsAndRanges() throws {
        var configuration = DashboardConfiguration()
        #expect(configuration.server.drainWindow == .seconds(10))
        #expect(configuration.server.shutdownGrace == .seconds(5))
        #expect(configuration.server.instanceTag == nil)
        _ = try CommandLineOptions.parse(["--drain-seconds", "30", "--shutdown-grace-seconds", "20",
                                          "--instance-tag", "255"], into: &configuration)
        #expect(configuration.server.drainWindow == .seconds(30))
        #expect(configuration.server.shutdownGrace == .seconds(20))
        #expect(configuration.server.instanceTag == 255)
        _ = try CommandLineOptions.parse(["--drain-seconds", "0"], into: &configuration)
        #expect(configuration.server.drainWindow == .zero)
        for bad in [["--drain-seconds", "-1"], ["--shutdown-grace-seconds", "0"], ["--instance-tag", "256"],
                    ["--instance-tag", "ff"]] {
            #expect(throws: CommandLineOptions.ParseError.self) { try CommandLineOptions.parse(bad, into: &configuration) }
        }
    }
}
