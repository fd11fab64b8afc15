import JSON
import Testing
@testable import Tables

/// A row's detail template (``DetailSpec``): fields that are not columns and the item's upstream link, escaped, only
/// for tables that configure one.
@Suite struct DetailRenderingTests {
    static let spec: TableSpec = {
        var spec = TableSpec(name: "t", title: "T", columns: [Column(title: "Name", field: Support.path("name"))],
                             keyField: Support.path("id"))
        spec.detail = DetailSpec(fields: [DetailSpec.Field(label: "Owner <\"x\">", path: Support.path("owner.login")),
                                          DetailSpec.Field(label: "Seats", path: Support.path("seats"), format: .number)],
                                 link: Support.path("url"), linkLabel: "Open <it>")
        return spec
    }()

    @Test func fieldsAndAnHTTPLinkAreEscapedInTheRowsTemplate() {
        let html = Support.text(TableRenderer(spec: Self.spec).renderRows([
            ["id": 1, "name": "Ada", "owner": ["login": "<img src=x onerror=alert(1)>"], "seats": 12345,
             "url": "https://up.test/i/1?a=1&b=\"2\""],
        ], startIndex: 0))
        #expect(html == "<tr data-key=\"1\" data-index=\"0\"><td class=\"rs-c rs-text\">Ada</td>"
            + "<template class=\"rs-more\"><div class=\"rs-more-field\" data-label=\"Owner &lt;&quot;x&quot;&gt;\">"
            + "&lt;img src=x onerror=alert(1)&gt;</div><div class=\"rs-more-field\" data-label=\"Seats\">12,345</div>"
            + "<div class=\"rs-more-link\"><a href=\"https://up.test/i/1?a=1&amp;b=&quot;2&quot;\" "
            + "rel=\"noopener noreferrer nofollow\">Open &lt;it&gt;</a></div></template></tr>")
    }

    @Test(arguments: ["javascript:alert(1)", "data:text/html,x", "//evil.test/", "  ", ""])
    func aLinkThatIsNotHTTPIsNotWritten(url: String) {
        let html = Support.text(TableRenderer(spec: Self.spec).renderRows([["id": 1, "url": .string(url)]], startIndex: 0))
        #expect(!html.contains("rs-more-link") && !html.contains("<a "), "\(html)")
        #expect(html.contains("<div class=\"rs-more-field\" data-label=\"Seats\"></div></template></tr>"), "missing: empty")
    }

    @Test func aTableWithoutDetailWritesNoTemplate() {
        var spec = Self.spec
        spec.detail = nil
        let item: JSONValue = ["id": 1, "name": "Ada", "owner": ["login": "x"], "url": "https://up.test/"]
        #expect(RowMaker(spec: spec).row(item).detail.isEmpty)
        #expect(Support.text(TableRenderer(spec: spec).renderRows([item], startIndex: 0))
            == "<tr data-key=\"1\" data-index=\"0\"><td class=\"rs-c rs-text\">Ada</td></tr>")
    }

    @Test func rowsFromBytesCarryTheSameDetail() throws {
        let text = #"{"id": 7, "name": "N", "owner": {"login": "o"}, "seats": 3, "url": "http://up.test/7", "other": [1]}"#
        let maker = RowMaker(spec: Self.spec)
        let fromBytes = try Array(text.utf8).withUnsafeBufferPointer { bytes throws(JSONError) in try maker.row(json: bytes) }
        #expect(fromBytes == maker.row(try JSONValue.parse(text)))
        #expect(fromBytes.detail == [.text("o"), .integer(3), .link("http://up.test/7", label: nil)])
    }

    @Test func theShellNamesTheTableByItsTitle() {
        var spec = Self.spec
        spec.title = "Orders & <refunds>"
        let shell = Support.text(TableRenderer(spec: spec).renderShell(streamURL: "/s", batchSize: 1, skeletonCount: 1))
        #expect(shell.contains(" aria-label=\"Orders &amp; &lt;refunds&gt;\" aria-busy=\"true\">"))
    }
}
