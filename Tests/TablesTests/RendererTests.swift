import JSON
import Testing
@testable import Tables

@Suite struct RendererTests {
    static let spec = TableSpec(
        name: "repos", title: "Repositories",
        columns: [
            Column(title: "Name", field: Support.path("name")),
            Column(title: "Stars", field: Support.path("stats.stars"), format: .number, width: "6rem"),
            Column(title: "Updated", field: Support.path("updated"), format: .date, width: "12 rem"),
            Column(title: "Home", field: Support.path("url"), format: .link, width: "20%",
                   labelField: Support.path("name")),
            Column(title: "State", field: Support.path("state"), format: .badge, width: "8.5ch"),
        ],
        keyField: Support.path("id"))
    static let renderer = TableRenderer(spec: spec)

    static func tdClasses(_ html: String) -> [String] {
        html.components(separatedBy: "<td class=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test func rowsHaveKeysIndicesAndOneCellPerColumn() {
        let items: [JSONValue] = [
            ["id": 7, "name": "a", "stats": ["stars": 1234], "updated": "2024-01-02", "url": "https://a.test", "state": "ok"],
            ["name": "b"],
            ["id": nil, "name": "c"],
        ]
        let html = Support.text(Self.renderer.renderRows(items, startIndex: 100))
        #expect(!html.contains("\n"))
        let rows = html.components(separatedBy: "</tr>").dropLast()
        #expect(rows.count == 3)
        #expect(rows[0].hasPrefix("<tr data-key=\"7\" data-index=\"100\">"))
        #expect(rows[1].hasPrefix("<tr data-key=\"101\" data-index=\"101\">"))
        #expect(rows[2].hasPrefix("<tr data-key=\"102\" data-index=\"102\">"))
        for row in rows {
            #expect(Self.tdClasses(row) == ["rs-c rs-text", "rs-c rs-number", "rs-c rs-date", "rs-c rs-link", "rs-c rs-badge"])
        }
        #expect(rows[0].contains("<td class=\"rs-c rs-number\">1,234</td>"))
        #expect(rows[1].contains("<td class=\"rs-c rs-number\"></td>"))
    }

    @Test func appendRowsAppends() {
        var buffer = Array("prefix".utf8)
        Self.renderer.appendRows([["id": "k"]], startIndex: 0, to: &buffer)
        #expect(Support.text(buffer).hasPrefix("prefix<tr data-key=\"k\""))
        #expect(Self.renderer.renderRows([Row](), startIndex: 0).isEmpty)
    }

    @Test func skeletonRowMatchesRealRowShape() {
        let skeleton = Support.text(Self.renderer.skeletonRow())
        let real = Support.text(Self.renderer.renderRows([["id": 1]], startIndex: 0))
        #expect(Self.tdClasses(skeleton) == Self.tdClasses(real))
        #expect(Self.tdClasses(skeleton).count == Self.spec.columns.count)
        #expect(skeleton.hasPrefix("<tr class=\"rs-skeleton\" aria-hidden=\"true\">"))
        #expect(Support.count(of: "<span class=\"rs-bone\"></span>", in: skeleton) == Self.spec.columns.count)
        #expect(Self.renderer.skeletonRows(count: 3) == Array((0..<3).map { _ in Self.renderer.skeletonRow() }.joined()))
        #expect(Self.renderer.skeletonRows(count: 0).isEmpty)
        #expect(Self.renderer.skeletonRows(count: -2).isEmpty)
    }

    @Test func shellFollowsTheDOMContract() {
        let shell = Support.text(Self.renderer.renderShell(streamURL: "/tables/repos/stream", batchSize: 50, skeletonCount: 4))
        #expect(shell.hasPrefix(#"<table class="rs-table" id="rs-table" data-table="repos" data-stream="/tables/repos/stream" data-batch-size="50" aria-label="Repositories" aria-busy="true">"#))
        for id in ["rs-table", "rs-rows", "rs-pending", "rs-footer", "rs-skeleton-row"] {
            #expect(Support.count(of: "id=\"\(id)\"", in: shell) == 1, "\(id)")
        }
        #expect(shell.contains(#"<colgroup><col class="rs-col-text"><col class="rs-col-number"><col class="rs-col-date"><col class="rs-col-link"><col class="rs-col-badge"></colgroup>"#))
        #expect(!shell.contains("style"), "no inline style under the CSP: the widths are in TableStyleSheet")
        #expect(shell.contains(#"<thead><tr><th scope="col" class="rs-c rs-text">Name</th><th scope="col" class="rs-c rs-number">Stars</th>"#))
        #expect(shell.contains("<tbody id=\"rs-rows\"></tbody>"))
        let skeleton = Support.text(Self.renderer.skeletonRow())
        #expect(shell.contains("<tbody id=\"rs-pending\">" + String(repeating: skeleton, count: 4) + "</tbody>"))
        #expect(shell.contains("<tfoot id=\"rs-footer\"></tfoot>\n</table>"))
        #expect(shell.hasSuffix("<template id=\"rs-skeleton-row\">" + skeleton + "</template>"))
    }

    @Test func columnsJSON() throws {
        let json = Self.renderer.columnsJSON()
        #expect(json.arrayValue?.count == 5)
        #expect(json[1] == ["title": "Stars", "field": "stats.stars", "format": "number", "width": "6rem"])
        #expect(json[2]?["width"] == .null)
        #expect(json[0]?["width"] == .null)
        let reparsed = try JSONValue.parse(json.serialized())
        #expect(reparsed == json)
    }

    @Test(arguments: [("8rem", true), ("120px", true), ("20%", true), ("1.5em", true), ("10ch", true),
                      ("8 rem", false), ("rem", false), ("1.rem", false), (".5rem", false), ("8REM", false),
                      ("8rem;color:red", false), ("-1px", false), ("", false), ("8vw", false), ("１px", false)])
    func widthValidation(width: String, valid: Bool) {
        #expect(Column.isValidWidth(width) == valid)
    }
}

/// Issue 28: a table's time zone and locale reach the page as escaped attributes of the table (only when set).
@Suite struct ViewerFormatsShellTests {
    @Test func theShellCarriesTheZoneAndLocaleEscaped() {
        var spec = TableSpec(name: "t", title: "T", columns: [Column(title: "When", field: Support.path("at"), format: .date)], keyField: nil)
        let plain = Support.text(TableRenderer(spec: spec).renderShell(streamURL: "/s", batchSize: 5, skeletonCount: 1))
        #expect(!plain.contains("data-time-zone") && !plain.contains("data-locale"))
        spec.viewerFormats = ViewerFormats(timeZone: "Asia/Tokyo", locale: "x\"><b>")
        let shell = Support.text(TableRenderer(spec: spec).renderShell(streamURL: "/s", batchSize: 5, skeletonCount: 1))
        #expect(shell.contains(" data-time-zone=\"Asia/Tokyo\" data-locale=\"x&quot;&gt;&lt;b&gt;\""))
    }
}
