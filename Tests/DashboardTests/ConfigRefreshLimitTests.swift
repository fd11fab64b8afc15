import Dashboard
import RowstreamKit
import Testing

/// The `live` object's refresh limit (`refreshPerMinute`, `refreshBurst`; docs/CONFIG.md).
@Suite struct ConfigRefreshLimitTests {
    @Test func limitKeys() throws {
        let config = try ConfigFileTests.parse(ConfigFileTests.table(extra: #", "live": {"refreshPerMinute": 6, "refreshBurst": 2}"#))
        #expect(config.tables.first?.live?.limit == RefreshLimit(burst: 2, every: .seconds(10)))
        let defaults = try ConfigFileTests.parse(ConfigFileTests.table(extra: #", "live": {}"#))
        #expect(defaults.tables.first?.live?.limit == .standard)
    }

    @Test(arguments: [
        (#", "live": {"refreshPerMinute": 0}"#, "test.json: tables[0].live.refreshPerMinute"),
        (#", "live": {"refreshBurst": 0}"#, "test.json: tables[0].live.refreshBurst"),
    ])
    func invalid(extra: String, prefix: String) {
        let error = #expect(throws: ConfigError.self) { try ConfigFileTests.parse(ConfigFileTests.table(extra: extra)) }
        #expect(error?.description.hasPrefix(prefix) == true, "\(error?.description ?? "no error")")
    }
}
