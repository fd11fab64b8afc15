import JSON
import Testing
@testable import Tables

/// Grid tables: card rows with an image (or monogram) and a title, labelled fields, skeleton cards alike.
@Suite struct GridRenderingTests {
    static let renderer: TableRenderer = {
        var spec = TableSpec(name: "t", title: "T", columns: [Column(title: "City <1>", field: Support.path("city"))],
                             keyField: Support.path("id"))
        spec.grid = GridSpec(titleField: Support.path("name"), imageField: Support.path("avatar"))
        return TableRenderer(spec: spec)
    }()

    @Test func cardsHaveMediaTitleAndLabelledFields() {
        let html = Support.text(Self.renderer.renderRows([
            ["id": 1, "name": "Ada <Lovelace>", "avatar": "https://img.test/a.png?x=1&y=2", "city": "London"],
            ["id": 2, "name": "grace hopper", "avatar": "javascript:alert(1)"],
        ], startIndex: 0))
        #expect(html.hasPrefix("<tr class=\"rs-card\" data-key=\"1\" data-index=\"0\"><td class=\"rs-card-media\"><img src=\"https://img.test/a.png?x=1&amp;y=2\" alt=\"\" loading=\"lazy\" referrerpolicy=\"no-referrer\"></td><td class=\"rs-card-title\">Ada &lt;Lovelace&gt;</td><td class=\"rs-c rs-text\" data-label=\"City &lt;1&gt;\">London</td></tr>"))
        #expect(html.contains("<span class=\"rs-monogram\" aria-hidden=\"true\">GH</span>"), "no http(s) image: a monogram")
        #expect(!html.contains("javascript:"))
    }

    @Test func skeletonCardsHaveTheSameParts() {
        let skeleton = Support.text(Self.renderer.skeletonRow())
        #expect(skeleton == "<tr class=\"rs-skeleton rs-card\" aria-hidden=\"true\"><td class=\"rs-card-media\"><span class=\"rs-bone\"></span></td><td class=\"rs-card-title\"><span class=\"rs-bone\"></span></td><td class=\"rs-c rs-text\" data-label=\"City &lt;1&gt;\"><span class=\"rs-bone\"></span></td></tr>")
        let shell = Support.text(Self.renderer.renderShell(streamURL: "/s", batchSize: 2, skeletonCount: 2))
        #expect(shell.hasPrefix("<table class=\"rs-table rs-grid\" id=\"rs-table\" data-layout=\"grid\" data-table=\"t\""))
        #expect(!shell.contains("style"), "no inline style under the CSP")
        #expect(TableStyleSheet.css([Self.renderer.spec]).contains("table.rs-table[data-table=\"t\"]{--rs-card-fields:1}"))
    }

    @Test func monograms() {
        #expect(TableRenderer.monogram("ada lovelace king") == "AL")
        #expect(TableRenderer.monogram("Ünïcödé") == "Ü")
        #expect(TableRenderer.monogram("") == "")
    }
}
