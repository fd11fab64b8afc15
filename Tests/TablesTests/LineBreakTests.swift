import JSON
import Testing
@testable import Tables

/// Rows rendered into an SSE event's data write every line break as the caller's `lineBreak` (`\ndata: `), so they
/// are framed as they are written: the same bytes as rendering with LF and splitting the lines afterwards.
@Suite struct LineBreakTests {
    static let dataLineBreak: StaticString = "\ndata: "

    /// `html` with every LF written as `\ndata: ` (what the SSE encoder made of the rows before).
    static func framed(_ html: [UInt8]) -> [UInt8] {
        html.flatMap { $0 == 0x0A ? Array("\ndata: ".utf8) : [$0] }
    }

    @Test(arguments: ColumnFormat.allCases)
    func everyLineBreakIsWrittenAsTheGivenOne(format: ColumnFormat) {
        let renderer = Support.renderer(format, labelField: format == .link ? "l" : nil)
        let texts = ["a\nb", "a\r\nb", "a\rb", "\r\r\n\n", "\n", "x\u{0C}\ty", "https://e.com/\n", "2024-01-02\n"]
        for text in texts {
            let item: JSONValue = ["id": .string(text), "v": .string(text), "l": .string(text)]
            let plain = renderer.renderRows([item], startIndex: 3)
            var framed: [UInt8] = []
            renderer.appendRows(RowMaker(spec: renderer.spec).rows([item]), startIndex: 3, to: &framed,
                                lineBreak: Self.dataLineBreak)
            #expect(framed == Self.framed(plain), "\(format): \(text.debugDescription)")
            #expect(!framed.contains(0x0D))
        }
    }

    @Test func aLineBreakInASectionAndALiveRowIsWrittenTheSameWay() {
        var spec = Support.renderer(.text).spec
        spec.sections = SectionSpec(field: Support.path("s"), footer: .count, footerLabel: "n")
        let renderer = TableRenderer(spec: spec)
        let rows = RowMaker(spec: spec).rows([["id": "k\n1", "v": "a\nb", "s": "one\rtwo"]])
        var framed: [UInt8] = []
        renderer.appendRows(rows, startIndex: 0, to: &framed, lineBreak: Self.dataLineBreak)
        #expect(framed == Self.framed(renderer.renderRows(rows, startIndex: 0)))
        var live: [UInt8] = []
        renderer.appendRow(rows[0], index: nil, to: &live, lineBreak: Self.dataLineBreak)
        var plainLive: [UInt8] = []
        renderer.appendRow(rows[0], index: nil, to: &plainLive)
        #expect(live == Self.framed(plainLive))
        #expect(Support.text(live).contains("a\ndata: b"))
    }
}
