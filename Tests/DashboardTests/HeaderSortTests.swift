import Dashboard
import Foundation
import HTTPServerTesting
import RowstreamKit
import TestSupport
import Testing

/// Sort by header (docs/CONFIG.md "Sort by header"): a column's `sort` maps its header to options of a control, so a
/// click goes through the controls' whitelist; a value outside it never reaches the upstream.
@Suite struct HeaderSortTests {
    static func table(columns: String, controls: String = "") -> String {
        #"{"tables": [{"name": "t", "request": {"url": "http://a.example/"}, "items": "d", "columns": "#
            + columns + #", "pagination": {"style": "link-header"}"# + controls + "}]}"
    }

    static func parse(_ text: String) throws(ConfigError) -> TableConfig {
        try ConfigFile.parse(Array(text.utf8), file: "test.json", environment: [:]).tables[0]
    }

    @Test func withoutAControlTheTableGetsOneOfTheHeaderSorts() throws {
        let table = try Self.parse(Self.table(columns: #"""
            [{"path": "id"}, {"path": "name", "title": "Name", "sort": {"parameter": "sort", "ascending": "name", "descending": "-name"}},
             {"path": "mrr", "format": "number", "sort": {"parameter": "sort", "ascending": "mrr", "descending": "-mrr"}}]
            """#))
        #expect(table.controls.count == 1)
        let control = try #require(table.controls.first)
        #expect(control.parameter == "sort" && control.label == "Sort")
        #expect(control.options.map(\.value) == ["", "name", "-name", "mrr", "-mrr"])
        #expect(control.options.map(\.label) == ["Default", "Name ↑", "Name ↓", "mrr ↑", "mrr ↓"])
        #expect(control.options.map(\.headerSort) == [
            nil, .init(column: 1, direction: .ascending), .init(column: 1, direction: .descending),
            .init(column: 2, direction: .ascending), .init(column: 2, direction: .descending),
        ])
    }

    @Test func withAControlTheHeaderChoosesItsOptions() throws {
        let table = try Self.parse(Self.table(
            columns: #"[{"path": "name", "sort": {"parameter": "order", "ascending": "name", "descending": "-name"}}]"#,
            controls: #", "controls": [{"parameter": "order", "options": [{"value": "", "label": "Newest"}, {"value": "-name"}, {"value": "name"}]}]"#))
        #expect(table.controls.count == 1)
        #expect(table.controls[0].options.map(\.value) == ["", "-name", "name"], "the control's own order, no option added")
        #expect(table.controls[0].options.map(\.headerSort) == [
            nil, .init(column: 0, direction: .descending), .init(column: 0, direction: .ascending),
        ])
    }

    @Test(arguments: [
        (#"[{"path": "a", "sort": {"parameter": "sort", "ascending": "a", "descending": "evil"}}]"#,
         #", "controls": [{"parameter": "sort", "options": [{"value": ""}, {"value": "a"}]}]"#,
         "test.json: tables[0].columns[0].sort.descending: one of the options of the control sort (the whitelist)"),
        (#"[{"path": "a", "sort": {"parameter": "sort", "ascending": "a", "descending": "a"}}]"#, "",
         "test.json: tables[0].columns[0].sort.descending: a value other than ascending's"),
        (#"[{"path": "a", "sort": {"parameter": "sort", "ascending": "", "descending": "-a"}}]"#, "",
         "test.json: tables[0].columns[0].sort.ascending: the parameter's value that sorts ascending"),
        (#"[{"path": "a", "sort": {"parameter": "so rt", "ascending": "a", "descending": "-a"}}]"#, "",
         "test.json: tables[0].columns[0].sort.parameter: a query parameter name"),
        (#"[{"path": "a", "sort": {"parameter": "sort", "ascending": "a", "descending": "-a", "default": "a"}}]"#, "",
         "test.json: tables[0].columns[0].sort.default: unknown key"),
        (#"[{"path": "a", "sort": {"parameter": "sort", "ascending": "a", "descending": "-a"}}, {"path": "b", "sort": {"parameter": "sort", "ascending": "a", "descending": "-b"}}]"#, "",
         "test.json: tables[0].columns[1].sort.ascending: a value no other header sort uses"),
        (#"[{"path": "a", "sort": "a"}]"#, "", "test.json: tables[0].columns[0].sort: "),
    ])
    func invalidSortsAreNamed(columns: String, controls: String, prefix: String) {
        let error = #expect(throws: ConfigError.self) { try Self.parse(Self.table(columns: columns, controls: controls)) }
        #expect(error?.description.hasPrefix(prefix) == true, "\(error?.description ?? "no error")")
    }

    /// The header's values are the only ones that reach the upstream, as its request log shows.
    @Test(arguments: [("p.sort=-name", 200, "-name"), ("p.sort=name", 200, "name"), ("p.sort=evil", 400, nil),
                      ("p.sort=", 200, nil)] as [(String, Int, String?)])
    func onlyTheHeaderSortsReachTheUpstream(query: String, status: Int, sort: String?) async throws {
        try await ConfigPromiseTests.withDashboard({ ConfigPromiseTests.pages($0) }, config: { upstream in
            """
            {"tables": [{"name": "items", "batchSize": 5, "request": {"url": "\(upstream.baseURL)/v1/items"},
              "items": "items", "pagination": {"style": "offset"}, "cache": {"ttlSeconds": 0, "prefetch": false},
              "columns": [{"path": "name", "sort": {"parameter": "sort", "ascending": "name", "descending": "-name"}}]}]}
            """
        }) { dashboard, upstream in
            guard let (items, logged) = try await ControlsWhitelistTests.upstreamQuery(
                dashboard, upstream, stream: query, status: status) else { return }
            #expect(items.filter { $0.name == "sort" }.map(\.value) == (sort.map { [$0] } ?? []), "\(logged.target)")
            let page = await InProcessClient(dashboard.responder).get("/tables/items").text
            #expect(page.contains(#"<option value="name" data-sort-column="0" data-sort="ascending">name ↑</option>"#))
            #expect(page.contains(#"<option value="-name" data-sort-column="0" data-sort="descending">name ↓</option>"#))
        }
    }
}
