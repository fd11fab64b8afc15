import Dashboard
import TestSupport
import Testing
import JSON

/// The `sections` object of a config table.
@Suite struct ConfigSectionsTests {
    @Test func sectionsWithASumFooter() throws {
        let config = try ConfigFileTests.parse(ConfigFileTests.table(extra: #", "sections": {"by": "address.city", "footer": "sum", "sum": "mrr", "label": "MRR"}"#))
        let sections = try #require(config.tables.first?.spec.sections)
        #expect(sections.field?.description == "address.city")
        #expect(sections.footer.name == "sum")
        #expect("\(sections.footer)".contains("mrr"))
        #expect(sections.footerLabel == "MRR")
    }

    @Test(arguments: [
        (#"{"footer": "count"}"#, "test.json: tables[0].sections.by: the JSON path"),
        (#"{"by": "city", "footer": "sum"}"#, "test.json: tables[0].sections.sum: the JSON path"),
        (#"{"by": "city", "sum": "mrr"}"#, "test.json: tables[0].sections.sum: only with"),
        (#"{"by": "city", "footer": "avg"}"#, "test.json: tables[0].sections.footer: one of none, count, sum"),
        (#"{"by": "city", "order": 1}"#, "test.json: tables[0].sections.order: unknown key"),
    ])
    func invalidSections(sections: String, prefix: String) {
        let error = #expect(throws: ConfigError.self) {
            try ConfigFileTests.parse(ConfigFileTests.table(extra: #", "sections": "# + sections))
        }
        #expect(error?.description.hasPrefix(prefix) == true, "\(error?.description ?? "no error")")
    }
}


/// The `live` and `grid` objects of a config table.
@Suite struct ConfigLiveGridTests {
    @Test func liveAndGrid() throws {
        let config = try ConfigFileTests.parse(ConfigFileTests.table(extra: #", "live": {"intervalSeconds": 7}, "grid": {"title": "name", "image": "avatar_url"}"#))
        let table = try #require(config.tables.first)
        #expect(table.live?.interval == .seconds(7))
        #expect(table.spec.grid?.titleField?.description == "name")
        #expect(table.spec.grid?.imageField?.description == "avatar_url")
        let refreshOnly = try ConfigFileTests.parse(ConfigFileTests.table(extra: #", "live": {}"#))
        #expect(refreshOnly.tables.first?.live != nil && refreshOnly.tables.first?.live?.interval == nil)
    }

    @Test(arguments: [
        (#", "live": {"intervalSeconds": 0}"#, "test.json: tables[0].live.intervalSeconds"),
        (#", "live": {"every": 1}"#, "test.json: tables[0].live.every: unknown key"),
        (#", "grid": {"image": "a"}"#, "test.json: tables[0].grid.title: the JSON path"),
        (#", "grid": {"title": "a"}, "sections": {"by": "b"}"#, "test.json: tables[0].grid: not together with sections"),
    ])
    func invalid(extra: String, prefix: String) {
        let error = #expect(throws: ConfigError.self) { try ConfigFileTests.parse(ConfigFileTests.table(extra: extra)) }
        #expect(error?.description.hasPrefix(prefix) == true, "\(error?.description ?? "no error")")
    }
}

/// The `controls` array of a config table.
@Suite struct ConfigControlsTests {
    @Test func controls() throws {
        let config = try ConfigFileTests.parse(ConfigFileTests.table(extra: #", "controls": [{"parameter": "sort", "label": "Sort", "options": [{"value": "", "label": "Default"}, {"value": "-created"}]}]"#))
        let control = try #require(config.tables.first?.controls.first)
        #expect(control.parameter == "sort" && control.label == "Sort")
        #expect(control.options.map(\.value) == ["", "-created"] && control.options.map(\.label) == ["Default", "-created"])
    }

    @Test(arguments: [
        (#"[{"parameter": "a b", "options": [{"value": "x"}]}]"#, "test.json: tables[0].controls[0].parameter"),
        (#"[{"parameter": "a", "options": []}]"#, "test.json: tables[0].controls[0].options: an array of 1 to 50"),
        (#"[{"parameter": "a", "options": [{"value": "x"}, {"value": "x"}]}]"#, "test.json: tables[0].controls[0].options[1].value"),
        (#"[{"parameter": "a", "options": [{"value": "x"}]}, {"parameter": "a", "options": [{"value": "y"}]}]"#, "test.json: tables[0].controls[1].parameter"),
        (#"[{"parameter": "a", "options": [{"value": "x"}], "kind": "select"}]"#, "test.json: tables[0].controls[0].kind: unknown key"),
    ])
    func invalid(controls: String, prefix: String) {
        let error = #expect(throws: ConfigError.self) {
            try ConfigFileTests.parse(ConfigFileTests.table(extra: #", "controls": "# + controls))
        }
        #expect(error?.description.hasPrefix(prefix) == true, "\(error?.description ?? "no error")")
    }
}
