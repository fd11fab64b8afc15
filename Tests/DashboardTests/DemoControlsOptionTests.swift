@testable import Dashboard
import Testing

/// `--demo-controls`: the command line's demo table has its sort, status and search controls unless it is `off`
/// (the README's main command shows the search box); the library's configuration keeps them off.
@Suite("Demo controls option")
struct DemoControlsOptionTests {
    @Test("on by default on the command line (not with sections), off with --demo-controls off; other values are refused")
    func flag() throws {
        #expect(!DashboardConfiguration().demo.controls)
        var configuration = DashboardConfiguration()
        _ = try CommandLineOptions.parse([], environment: [:], into: &configuration)
        #expect(configuration.demo.controls)
        _ = try CommandLineOptions.parse(["--demo-controls", "off"], environment: [:], into: &configuration)
        #expect(!configuration.demo.controls)
        var sectioned = DashboardConfiguration()
        _ = try CommandLineOptions.parse(["--demo-sections", "city"], environment: [:], into: &sectioned)
        #expect(!sectioned.demo.controls, "sections keep their order: no sort control unless asked for")
        _ = try CommandLineOptions.parse(["--demo-sections", "city", "--demo-controls", "on"], environment: [:],
                                         into: &sectioned)
        #expect(sectioned.demo.controls)
        #expect(throws: CommandLineOptions.ParseError.self) {
            try CommandLineOptions.parse(["--demo-controls", "yes"], environment: [:], into: &configuration)
        }
    }
}
