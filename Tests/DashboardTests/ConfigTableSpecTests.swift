import Dashboard
import JSON
import RowstreamKit
import Testing

/// How a config table's rows look (name, title, key, columns), read by the config file's parser, the one parser of a
/// table's JSON (it replaced `TableSpec(json:)`, a second one only tests used).
@Suite struct ConfigTableSpecTests {
    private static func path(_ text: String) throws -> JSONPath { try JSONPath(text) }

    @Test("a full table: title, key path, a link column with width and label")
    func readsAFullSpec() throws {
        let config = try ConfigFileTests.parse(#"""
            {"tables": [{"name": "repos", "title": "Repositories", "key": "node.id", "items": "d",
              "request": {"url": "http://a.example/"}, "pagination": {"style": "link-header"},
              "columns": [{"title": "Name", "path": "name"},
                          {"title": "Home", "path": "[\"html_url\"]", "format": "link", "width": "12rem",
                           "label": "full_name"}]}]}
            """#)
        let spec = try #require(config.tables.first).spec
        #expect(spec.name == "repos")
        #expect(spec.title == "Repositories")
        #expect(spec.keyField == (try Self.path("node.id")))
        #expect(spec.columns == [
            TableColumn(title: "Name", field: try Self.path("name")),
            TableColumn(title: "Home", field: try Self.path("html_url"), format: .link, width: "12rem",
                        labelField: try Self.path("full_name")),
        ])
    }

    @Test("defaults: the title is the name, the key is id, a column is text titled by its path")
    func defaults() throws {
        let spec = try #require(try ConfigFileTests.parse(ConfigFileTests.columns(#"[{"path": "a.b"}]"#)).tables.first).spec
        #expect(spec.title == "t")
        #expect(spec.keyField == (try Self.path("id")))
        #expect(spec.columns.first?.format == .text)
        #expect(spec.columns.first?.title == "a.b")
    }

    @Test(arguments: [
        (#"[{"title": "x"}]"#, "tables[0].columns[0].path"),
        (#"[{"path": "a", "format": "html"}]"#, "tables[0].columns[0].format"),
        (#"[{"path": "a", "width": "1px;x"}]"#, "tables[0].columns[0].width"),
        (#"[{"path": "a..b"}]"#, "tables[0].columns[0].path"),
        (#"[{"path": "a", "label": "["}]"#, "tables[0].columns[0].label"),
        ("[]", "tables[0].columns"),
    ])
    func rejectsABadColumn(columns: String, keyPath: String) {
        let error = #expect(throws: ConfigError.self) { try ConfigFileTests.parse(ConfigFileTests.columns(columns)) }
        #expect(error?.keyPath == keyPath, "\(error?.description ?? "no error")")
    }

    @Test func rejectsABadKeyPath() {
        let text = ConfigFileTests.columns(#"[{"path": "a"}], "key": "a[""#)
        let error = #expect(throws: ConfigError.self) { try ConfigFileTests.parse(text) }
        #expect(error?.keyPath == "tables[0].key", "\(error?.description ?? "no error")")
    }
}
