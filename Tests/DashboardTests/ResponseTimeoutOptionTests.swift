import Dashboard
import Testing

/// `--response-timeout-seconds` and the config's `responseTimeoutSeconds` (docs/CONFIG.md): set, ranged, and never
/// shorter than a table's slowest upstream fetch.
@Suite("Response timeout option")
struct ResponseTimeoutOptionTests {
    /// A config of one table whose requests time out after `timeout` seconds (3 attempts, waits of up to 30 s:
    /// its slowest fetch takes 3 × timeout + 60 s), with `responseTimeoutSeconds` when given.
    static func config(timeout: Int, response: Int? = nil) -> String {
        let request = #"{"url": "https://api.example.com/v1/items", "timeoutSeconds": \#(timeout)}"#
        let top = response.map { #", "responseTimeoutSeconds": \#($0)"# } ?? ""
        return String(ConfigFileTests.table(request: request).dropLast()) + top + "}"
    }

    @Test("the flag sets it, in 1...3600")
    func flag() throws {
        var configuration = DashboardConfiguration()
        #expect(configuration.responseTimeout == nil && configuration.server.responseTimeout == .seconds(120))
        _ = try CommandLineOptions.parse(["--response-timeout-seconds", "300"], into: &configuration)
        #expect(configuration.responseTimeout == .seconds(300))
        for bad in ["0", "3601", "2m"] {
            #expect(throws: CommandLineOptions.ParseError.self) {
                try CommandLineOptions.parse(["--response-timeout-seconds", bad], into: &configuration)
            }
        }
        #expect(CommandLineOptions.usage.contains("--response-timeout-seconds N"))
    }

    @Test("the config sets it; one a table's slowest fetch would meet is refused, naming the table and what it needs")
    func config() throws {
        #expect(try ConfigFileTests.parse(Self.config(timeout: 15, response: 300)).responseTimeout == .seconds(300))
        #expect(try ConfigFileTests.parse(Self.config(timeout: 15)).responseTimeout == nil)
        do {
            _ = try ConfigFileTests.parse(Self.config(timeout: 60, response: 120))
            Issue.record("a 120 s response timeout under a 60 s upstream timeout was accepted")
        } catch {
            #expect(error.keyPath == "responseTimeoutSeconds")
            #expect(error.expected.contains("at least 250") && error.expected.contains("table \"items\""), "\(error)")
        }
        #expect(throws: ConfigError.self) { try ConfigFileTests.parse(Self.config(timeout: 15, response: 0)) }
    }

    @Test("without one, the default outlasts every table's slowest fetch; a flag too short refuses to start")
    func defaultsAndFlagAgainstTables() throws {
        let slow = try ConfigFileTests.parse(Self.config(timeout: 60))
        let table = try #require(slow.tables.first)
        #expect(ResponseTimeout.slowestFetch(table) == .seconds(240), "3 × 60 s, and 2 waits of up to 30 s")
        #expect(ResponseTimeout.tooShort(ResponseTimeout.standard, for: slow.tables) != nil)
        #expect(ResponseTimeout.tooShort(.seconds(250), for: slow.tables) == nil)
        let quick = try ConfigFileTests.parse(Self.config(timeout: 15))
        #expect(ResponseTimeout.tooShort(ResponseTimeout.standard, for: quick.tables) == nil,
                "the default timeout fits the default upstream timeout and retries")
        var configuration = DashboardConfiguration()
        configuration.server.port = 0
        configuration.responseTimeout = .seconds(100)
        do {
            let dashboard = try Dashboard.inProcess(configuration, config: slow)
            dashboard.shutdown()
            Issue.record("started with a response timeout its table's fetch would meet")
        } catch {
            #expect("\(error)".contains("--response-timeout-seconds 100 is too short") && "\(error)".contains("250"))
        }
    }
}
