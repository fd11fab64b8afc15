@testable import Dashboard
import RowstreamKit
import Testing

/// `--io-uring on|off`: the server's send path (docs/OPERATING.md). Unset, the server's default holds (on, unless
/// the environment says `ROWSTREAM_IO_URING=off`).
@Suite("io_uring option")
struct IOUringOptionTests {
    @Test("--io-uring off and on reach the server configuration; other values are refused")
    func flag() throws {
        var configuration = DashboardConfiguration()
        #expect(configuration.server.ioUring == nil)
        _ = try CommandLineOptions.parse(["--io-uring", "off"], into: &configuration)
        #expect(configuration.server.ioUring == false)
        _ = try CommandLineOptions.parse(["--io-uring", "on"], into: &configuration)
        #expect(configuration.server.ioUring == true)
        #expect(throws: CommandLineOptions.ParseError.self) {
            try CommandLineOptions.parse(["--io-uring", "maybe"], into: &configuration)
        }
    }
}
