import Dashboard
import Testing
import Tables

/// The chart formats in a config file: `"format": "bar"` (with an optional `"range"`), `"sparkline"`, `"progress"`,
/// each error naming its key.
@Suite struct ChartConfigTests {
    @Test func chartFormatsAndABarsRange() throws {
        let table = try ConfigFileTests.parse(ConfigFileTests.columns(#"""
            [{"path": "mrr", "format": "bar", "range": {"min": 0, "max": 2500.5}, "decimals": 2},
             {"path": "size", "format": "bar"},
             {"path": "trend", "format": "sparkline"}, {"path": "done", "format": "progress", "decimals": 1}]
            """#)).tables[0]
        #expect(table.spec.columns.map(\.format) == [.bar, .bar, .sparkline, .progress])
        #expect(table.spec.columns.map(\.range) == [0...2500.5, nil, nil, nil])
        #expect(table.spec.columns.map(\.decimals) == [2, nil, nil, 1])
    }

    @Test(arguments: [
        (#"[{"path": "a", "format": "chart"}]"#,
         "test.json: tables[0].columns[0].format: one of text, number, date, link, badge, bar, sparkline, progress"),
        (#"[{"path": "a", "format": "progress", "range": {"min": 0, "max": 1}}]"#,
         "test.json: tables[0].columns[0].range: only for a column of format bar"),
        (#"[{"path": "a", "format": "bar", "range": [0, 1]}]"#, "test.json: tables[0].columns[0].range: an object"),
        (#"[{"path": "a", "format": "bar", "range": {"max": 1}}]"#, "test.json: tables[0].columns[0].range.min: a number"),
        (#"[{"path": "a", "format": "bar", "range": {"min": 0, "max": "10"}}]"#,
         "test.json: tables[0].columns[0].range.max: a number"),
        (#"[{"path": "a", "format": "bar", "range": {"min": 5, "max": 5}}]"#,
         "test.json: tables[0].columns[0].range.max: a number greater than min (5.0)"),
        (#"[{"path": "a", "format": "bar", "range": {"min": 0, "max": 1, "step": 1}}]"#,
         "test.json: tables[0].columns[0].range.step: unknown key"),
        (#"[{"path": "a", "format": "sparkline", "decimals": 1}]"#,
         "test.json: tables[0].columns[0].decimals: only for a column of format number, bar or progress"),
    ])
    func badChartColumnsAreNamed(columns: String, prefix: String) {
        let error = #expect(throws: ConfigError.self) { try ConfigFileTests.parse(ConfigFileTests.columns(columns)) }
        #expect(error?.description.hasPrefix(prefix) == true, "\(error?.description ?? "no error")")
    }
}
