import Dashboard
import Foundation
import TestSupport
import Testing
import Upstream

/// The config file: strict validation with clear errors, secrets from the environment, the shipped examples.
@Suite struct ConfigFileTests {
    static func parse(_ text: String, environment: [String: String] = ["TOKEN": "s3cr3t-value"]) throws(ConfigError) -> ConfigFile {
        try ConfigFile.parse(Array(text.utf8), file: "test.json", environment: environment)
    }

    static func table(pagination: String = #"{"style": "cursor", "cursorPath": "next"}"#, extra: String = "",
                      request: String = #"{"url": "https://api.example.com/v1/items", "headers": {"Authorization": "Bearer ${TOKEN}"}}"#) -> String {
        """
        {"tables": [{"name": "items", "request": \(request), "items": "data",
          "columns": [{"title": "ID", "path": "id", "format": "number"}], "pagination": \(pagination)\(extra)}]}
        """
    }

    @Test func aValidConfigWithASecretFromTheEnvironment() throws {
        let config = try Self.parse(Self.table())
        let table = try #require(config.tables.first)
        #expect(table.spec.name == "items" && table.spec.title == "items")
        #expect(table.template.headers.first?.value == "Bearer s3cr3t-value")
        #expect(table.batchSize == 50)
        guard case .cursor(let parameter, let path) = table.style else { Issue.record("style \(table.style)"); return }
        #expect(parameter == "cursor" && path.description == "next")
    }

    @Test(arguments: [
        (table(extra: #", "colour": "red""#), "test.json: tables[0].colour: unknown key"),
        (table(pagination: #"{"style": "cursor", "cursorPath": "next", "nextPath": "x"}"#), "test.json: tables[0].pagination.nextPath: unknown key"),
        (table(pagination: #"{"style": "scroll"}"#), "test.json: tables[0].pagination.style: one of link-header, next-url, cursor, keyset, offset, page"),
        (table(pagination: #"{"style": "next-url"}"#), "test.json: tables[0].pagination.nextPath: the JSON path"),
        (table(request: #"{"url": "ftp://example.com/x"}"#), "test.json: tables[0].request.url: an absolute http or https URL"),
        (table(extra: #", "batchSize": 0"#), "test.json: tables[0].batchSize: a whole number in 1...500"),
        (table(extra: #", "items": "data[""#), "test.json: tables[0].items: a JSON path"),
        (#"{"tables": []}"#, "test.json: tables: a non-empty array"),
        ("{not json", "test.json: valid JSON"),
        (#"{"tables": [], "extra": 1}"#, "test.json: tables: a non-empty array"),
        (table(pagination: #"{"style": "offset", "totalPath": "total", "endWhen": "short-page"}"#), "test.json: tables[0].pagination: only one of"),
        (table(extra: #", "proxy": {"items": "all"}"#), "test.json: tables[0].proxy.items: one of columns, raw"),
        (table(extra: #", "proxy": {"item": "raw"}"#), "test.json: tables[0].proxy.item: unknown key"),
        (table(extra: #", "proxy": {"enabled": "no"}"#), "test.json: tables[0].proxy.enabled: "),
        (table(extra: #", "proxy": "raw""#), "test.json: tables[0].proxy: "),
    ])
    func invalidConfigsNameFileKeyPathAndExpectation(text: String, prefix: String) {
        let error = #expect(throws: ConfigError.self) { try Self.parse(text) }
        #expect(error?.description.hasPrefix(prefix) == true, "\(error?.description ?? "no error")")
    }

    @Test("the JSON proxy shows the columns by default; raw items and no proxy are opt-in")
    func proxyItemsKey() throws {
        #expect(try Self.parse(Self.table()).tables[0].proxyItems == .columns)
        #expect(try Self.parse(Self.table(extra: #", "proxy": {"items": "raw"}"#)).tables[0].proxyItems == .raw)
        #expect(try Self.parse(Self.table(extra: #", "proxy": {"items": "columns"}"#)).tables[0].proxyItems == .columns)
        #expect(try Self.parse(Self.table(extra: #", "proxy": {"enabled": false}"#)).tables[0].proxyItems == nil)
        #expect(try Self.parse(Self.table(extra: #", "proxy": {"enabled": true, "items": "raw"}"#)).tables[0].proxyItems == .raw)
    }

    static func columns(_ columns: String) -> String {
        #"{"tables": [{"name": "t", "request": {"url": "http://a.example/"}, "items": "d", "columns": "#
            + columns + #", "pagination": {"style": "link-header"}}]}"#
    }

    @Test("a column's minimum width and a number column's fixed decimals")
    func columnMinWidthAndDecimals() throws {
        let table = try Self.parse(Self.columns(
            #"[{"path": "name", "minWidth": "12rem"}, {"path": "rating", "format": "number", "decimals": 2}, {"path": "n", "format": "number"}]"#)).tables[0]
        #expect(table.spec.columns.map(\.minWidth) == ["12rem", nil, nil])
        #expect(table.spec.columns.map(\.decimals) == [nil, 2, nil])
    }

    @Test(arguments: [
        (#"[{"path": "a", "minWidth": "12"}]"#, "test.json: tables[0].columns[0].minWidth: a CSS length"),
        (#"[{"path": "a", "minWidth": "calc(1px)"}]"#, "test.json: tables[0].columns[0].minWidth: a CSS length"),
        (#"[{"path": "a", "decimals": 2}]"#, "test.json: tables[0].columns[0].decimals: only for a column of format number"),
        (#"[{"path": "a", "format": "number", "decimals": 7}]"#, "test.json: tables[0].columns[0].decimals: a whole number in 0...6"),
        (#"[{"path": "a", "format": "number", "decimals": 1.5}]"#, "test.json: tables[0].columns[0].decimals: a whole number in 0...6"),
    ])
    func invalidColumnSizesAndDecimals(columns: String, prefix: String) {
        let error = #expect(throws: ConfigError.self) { try Self.parse(Self.columns(columns)) }
        #expect(error?.description.hasPrefix(prefix) == true, "\(error?.description ?? "no error")")
    }

    @Test func duplicateTableNamesAreCaught() {
        let one = #"{"name": "t", "request": {"url": "http://a.example/"}, "items": "d", "columns": [{"path": "id"}], "pagination": {"style": "link-header"}}"#
        let error = #expect(throws: ConfigError.self) { try Self.parse("{\"tables\": [\(one), \(one)]}") }
        #expect(error?.description == "test.json: tables[1].name: a name no other table uses")
    }

    @Test func aMissingVariableIsNamedAndNoSecretIsEverEchoed() {
        let missing = #expect(throws: ConfigError.self) { try Self.parse(Self.table(), environment: [:]) }
        #expect(missing?.description == "test.json: tables[0].request.headers.Authorization: environment variable TOKEN to be set")

        let injected = #expect(throws: ConfigError.self) {
            try Self.parse(Self.table(), environment: ["TOKEN": "s3cr3t\r\nX-Evil: 1"])
        }
        #expect(injected.map { !$0.description.contains("s3cr3t") } == true)
        #expect(injected?.keyPath == "tables[0].request.headers.Authorization")
    }

    @Test func everyExampleConfigIsValid() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples").appendingPathComponent("Configs")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count >= 6, "one example per style")
        let environment = ["GITHUB_TOKEN": "t", "API_TOKEN": "t", "STRIPE_KEY": "t", "SLACK_TOKEN": "t", "NOTION_TOKEN": "t",
                           "SHOP_TOKEN": "t", "GRAPH_TOKEN": "t"]
        for file in files {
            let path = folder.appendingPathComponent(file).path
            #expect(throws: Never.self, "\(file)") { _ = try ConfigFile.load(path: path, environment: environment) }
        }
    }
}

extension ConfigFileTests {
    @Test func aMisspeltKeyIsReportedAsUnknownFirst() {
        let error = #expect(throws: ConfigError.self) { try Self.parse(#"{"tables": [{"name": "x", "itmes": "data"}]}"#) }
        #expect(error?.keyPath == "tables[0].itmes")
        #expect(error?.expected.hasPrefix("unknown key; known keys here: batchSize, cache, checks, columns") == true)
    }
}
