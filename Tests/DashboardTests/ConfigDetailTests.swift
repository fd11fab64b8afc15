import Dashboard
import JSON
import TestSupport
import Testing

/// The `detail` object of a config table (a row's detail view) and `access.proxy.logout` (the pages' Sign out).
@Suite struct ConfigDetailTests {
    @Test func detailFieldsAndLink() throws {
        let config = try ConfigFileTests.parse(ConfigFileTests.table(extra: #", "detail": {"fields": [{"path": "owner.login", "label": "Owner"}, {"path": "created_at", "format": "date"}], "link": "html_url", "linkLabel": "Open on GitHub"}"#))
        let detail = try #require(config.tables.first?.spec.detail)
        #expect(detail.fields.map(\.label) == ["Owner", "created_at"], "a label defaults to the path")
        #expect(detail.fields.map(\.path.description) == ["owner.login", "created_at"])
        #expect(detail.fields.map(\.format) == [.text, .date])
        #expect(detail.link?.description == "html_url" && detail.linkLabel == "Open on GitHub")
        let linkOnly = try ConfigFileTests.parse(ConfigFileTests.table(extra: #", "detail": {"link": "url"}"#))
        #expect(linkOnly.tables.first?.spec.detail?.linkLabel == "Open the original")
        #expect(try ConfigFileTests.parse(ConfigFileTests.table()).tables.first?.spec.detail == nil)
    }

    @Test(arguments: [
        (#"{}"#, "test.json: tables[0].detail.fields: a non-empty array"),
        (#"{"fields": []}"#, "test.json: tables[0].detail.fields: a non-empty array"),
        (#"{"fields": [{"label": "Owner"}]}"#, "test.json: tables[0].detail.fields[0].path: the JSON path"),
        (#"{"fields": [{"path": "a", "label": ""}]}"#, "test.json: tables[0].detail.fields[0].label: a non-empty string"),
        (#"{"fields": [{"path": "a", "format": "bold"}]}"#, "test.json: tables[0].detail.fields[0].format: one of text"),
        // Charts are for columns: a detail field shows text, so these are refused rather than shown plain.
        (#"{"fields": [{"path": "a"}, {"path": "b", "format": "bar"}]}"#,
         "test.json: tables[0].detail.fields[1].format: one of text, number, date, link, badge (bar, sparkline and progress are for columns)"),
        (#"{"fields": [{"path": "a", "format": "sparkline"}]}"#, "test.json: tables[0].detail.fields[0].format: one of text"),
        (#"{"fields": [{"path": "a", "format": "progress"}]}"#, "test.json: tables[0].detail.fields[0].format: one of text"),
        (#"{"fields": [{"path": "a", "title": "A"}]}"#, "test.json: tables[0].detail.fields[0].title: unknown key"),
        (#"{"fields": [{"path": "a"}], "linkLabel": "Open"}"#, "test.json: tables[0].detail.linkLabel: only with \"link\""),
        (#"{"link": "url", "linkLabel": ""}"#, "test.json: tables[0].detail.linkLabel: a non-empty string"),
        (#"{"link": "a..b"}"#, "test.json: tables[0].detail.link"),
        (#"{"fields": {"path": "a"}}"#, "test.json: tables[0].detail.fields: an array"),
        (#"{"url": "a"}"#, "test.json: tables[0].detail.url: unknown key"),
        (#""owner""#, "test.json: tables[0].detail: an object"),
    ])
    func invalidDetail(detail: String, prefix: String) {
        let error = #expect(throws: ConfigError.self) {
            try ConfigFileTests.parse(ConfigFileTests.table(extra: #", "detail": "# + detail))
        }
        #expect(error?.description.hasPrefix(prefix) == true, "\(error?.description ?? "no error")")
    }

    @Test func tooManyDetailFields() {
        let fields = (0...50).map { #"{"path": "f\#($0)"}"# }.joined(separator: ", ")
        let error = #expect(throws: ConfigError.self) {
            try ConfigFileTests.parse(ConfigFileTests.table(extra: #", "detail": {"fields": [\#(fields)]}"#))
        }
        #expect(error?.description.hasPrefix("test.json: tables[0].detail.fields: at most 50 fields") == true)
    }

    @Test func proxyLogout() throws {
        func parse(_ logout: String) throws(ConfigError) -> ConfigFile {
            try AccessConfigTests.parse(#"{"mode": "proxy", "proxy": {"addresses": ["10.0.0.2"], "logout": "\#(logout)"}}"#)
        }
        #expect(try parse("/oauth2/sign_out").access?.proxy?.logoutURL == "/oauth2/sign_out")
        #expect(try parse("https://sso.example.com/logout?rd=/").access?.proxy?.logoutURL == "https://sso.example.com/logout?rd=/")
        for bad in ["javascript:alert(1)", "//evil.example", "/\\\\evil", "logout", "/a b", "/a\\\"b", "/<x>"] {
            let error = #expect(throws: ConfigError.self) { try parse(bad) }
            #expect(error?.description.hasPrefix("test.json: access.proxy.logout: a path on this server") == true,
                    "\(bad): \(error?.description ?? "no error")")
        }
    }
}
