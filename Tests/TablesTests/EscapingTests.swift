import Foundation
import JSON
import Testing
@testable import Tables

@Suite struct EscapingTests {
    static let hostile: [String] = [
        "<script>alert(1)</script>",
        "\"onmouseover=\"alert(1)",
        "' onfocus='x",
        "</td></tr><tr><td>",
        "<img src=x onerror=alert(1)>",
        "&lt;already&gt; & raw",
        "<!-- unbalanced",
        "<b>bold",
    ]

    @Test func escapesAllFiveCharacters() {
        #expect(HTMLEscaping.escaped(#"<a href="x">&'</a>"#) == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;")
        #expect(HTMLEscaping.escaped("plain é 😀") == "plain é 😀")
        #expect(HTMLEscaping.escaped("") == "")
        var buffer = Array("x".utf8)
        HTMLEscaping.appendEscaped("<", to: &buffer)
        #expect(Support.text(buffer) == "x&lt;")
    }

    @Test(arguments: ColumnFormat.allCases)
    func hostileValuesNeverBecomeMarkup(format: ColumnFormat) {
        for value in Self.hostile {
            let cell = Support.cell(format, .string(value))
            #expect(!cell.contains("<script"), "\(format): \(cell)")
            #expect(!cell.contains("<img"), "\(format): \(cell)")
            #expect(!cell.contains("<tr"), "\(format): \(cell)")
            #expect(!cell.contains("<!--"), "\(format): \(cell)")
            #expect(!cell.contains("<b>"), "\(format): \(cell)")
            #expect(!cell.contains("'"), "\(format): \(cell)")
            // The only markup is the format's own wrapper (a badge span; a chart's bad-value span, titled with the
            // value), never from the value.
            let tags = Support.count(of: "<", in: cell)
            #expect(tags == (format == .badge || format.isChart ? 2 : 0), "\(format): \(cell)")
            // Quotes only delimit the wrapper's own attributes.
            #expect(Support.count(of: "\"", in: cell) == (format == .badge ? 2 : format.isChart ? 4 : 0), "\(format): \(cell)")
        }
    }

    @Test func hostileTextIsEscapedExactly() {
        #expect(Support.cell(.text, "<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;")
        #expect(Support.cell(.text, "\"onmouseover=\"x") == "&quot;onmouseover=&quot;x")
    }

    @Test func hostileKeysAndTitlesAreEscaped() {
        let column = Column(title: "<i>T</i>", field: Support.path("v"))
        let spec = TableSpec(name: "n\"><script>", title: "T", columns: [column], keyField: Support.path("id"))
        let renderer = TableRenderer(spec: spec)
        let row = Support.text(renderer.renderRows([["id": "\"><script>", "v": 1]], startIndex: 0))
        #expect(row.hasPrefix("<tr data-key=\"&quot;&gt;&lt;script&gt;\" data-index=\"0\">"))
        let shell = Support.text(renderer.renderShell(streamURL: "/s?a=1&b=\"x\"", batchSize: 5, skeletonCount: 1))
        #expect(shell.contains("data-table=\"n&quot;&gt;&lt;script&gt;\""))
        #expect(shell.contains("data-stream=\"/s?a=1&amp;b=&quot;x&quot;\""))
        #expect(shell.contains(">&lt;i&gt;T&lt;/i&gt;</th>"))
        #expect(!shell.contains("<script>") && !shell.contains("<i>"))
    }

    @Test func nonStringValuesInTextCells() {
        #expect(Support.cell(.text, 42) == "42")
        #expect(Support.cell(.text, 2.5) == "2.5")
        #expect(Support.cell(.text, true) == "true")
        #expect(Support.cell(.text, nil) == "")
        #expect(Support.cell(.text, ["<k>": "<v>"]) == "{&quot;&lt;k&gt;&quot;:&quot;&lt;v&gt;&quot;}")
    }
}
