import JSON
import Testing
@testable import Tables

/// Sectioned tables: header rows where the section changes, section attributes on rows, the shell's skeletons.
@Suite struct SectionRenderingTests {
    static func renderer(_ footer: SectionSpec.Footer) -> TableRenderer {
        var spec = TableSpec(name: "t", title: "T", columns: [Column(title: "N", field: Support.path("n")),
                                                          Column(title: "A", field: Support.path("a"))],
                             keyField: Support.path("id"))
        spec.sections = SectionSpec(field: Support.path("city"), footer: footer, footerLabel: "Sum <&>")
        return TableRenderer(spec: spec)
    }

    static let items: [JSONValue] = [
        ["id": 1, "city": "Lisbon", "a": 2.5], ["id": 2, "city": "Lisbon", "a": 10],
        ["id": 3, "city": "<Oslo>", "a": "7"], ["id": 4, "city": "Lisbon", "a": "x"], ["id": 5],
    ]

    @Test("a header row first and wherever the section changes; each row says its section")
    func headersWhereTheSectionChanges() {
        let html = Support.text(Self.renderer(.count).renderRows(Self.items, startIndex: 10))
        let heads = html.components(separatedBy: "<tr class=\"rs-section-head\" data-section=\"").dropFirst()
            .map { String($0.prefix { $0 != "\"" }) }
        #expect(heads == ["Lisbon", "&lt;Oslo&gt;", "Lisbon", ""], "consecutive rows share a header; values escaped")
        #expect(html.hasPrefix("<tr class=\"rs-section-head\" data-section=\"Lisbon\"><th scope=\"rowgroup\" colspan=\"2\">"))
        #expect(html.contains("<tr data-key=\"2\" data-index=\"11\" data-section=\"Lisbon\">"))
        #expect(html.contains("<tr data-key=\"5\" data-index=\"14\" data-section=\"\">"))
        #expect(html.contains("<span class=\"rs-section-title\">(none)</span>"))
        #expect(!html.contains("data-value"), "a count footer needs no values")
    }

    @Test("a sum footer puts each row's numeric value in data-value; non-numbers add nothing")
    func sumValues() {
        let html = Support.text(Self.renderer(.sum(Support.path("a"))).renderRows(Self.items, startIndex: 0))
        #expect(html.contains("data-key=\"1\" data-index=\"0\" data-section=\"Lisbon\" data-value=\"2.5\">"))
        #expect(html.contains("data-key=\"2\" data-index=\"1\" data-section=\"Lisbon\" data-value=\"10\">"))
        #expect(html.contains("data-key=\"3\" data-index=\"2\" data-section=\"&lt;Oslo&gt;\" data-value=\"7\">"))
        #expect(html.contains("data-key=\"4\" data-index=\"3\" data-section=\"Lisbon\">"))
    }

    @Test("the shell names the footer, starts its skeletons with a section header and has its template")
    func shell() {
        let html = Support.text(Self.renderer(.count).renderShell(streamURL: "/s", batchSize: 3, skeletonCount: 3))
        #expect(html.contains("data-sections=\"count\" data-section-label=\"Sum &lt;&amp;&gt;\""))
        let skeletonHead = "<tr class=\"rs-skeleton rs-section-head\" aria-hidden=\"true\"><th colspan=\"2\">"
        #expect(html.contains("<tbody id=\"rs-pending\">" + skeletonHead))
        #expect(html.contains("<template id=\"rs-skeleton-section\">" + skeletonHead))
        let plain = Support.text(RendererTests.renderer.renderShell(streamURL: "/s", batchSize: 3, skeletonCount: 3))
        #expect(!plain.contains("section"), "plain tables are unchanged")
    }
}
