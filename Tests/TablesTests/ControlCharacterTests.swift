import JSON
import Testing
@testable import Tables

/// Control characters from upstream strings (issue 12, item 3): what the HTML tokenizer would report as a parse
/// error never reaches a `rows` fragment raw (docs/PROTOCOL.md, "Escaping").
@Suite struct ControlCharacterTests {
    static let replacement = "\u{FFFD}"

    /// The C0 controls, DEL and the C1 controls that become U+FFFD (everything in 0-0x9F but tab, LF, FF, CR).
    static let replaced: [Unicode.Scalar] = (0...0x9F).compactMap { value in
        guard value < 0x20 || value >= 0x7F, ![0x09, 0x0A, 0x0C, 0x0D].contains(value) else { return nil }
        return Unicode.Scalar(UInt32(value))
    }

    @Test func nulBecomesTheReplacementCharacterInTextAndAttributes() {
        #expect(HTMLEscaping.escaped("a\u{0}b") == "a\u{FFFD}b")
        #expect(Support.cell(.text, "x\u{0}<y>") == "x\u{FFFD}&lt;y&gt;")
        #expect(Support.cell(.badge, "\u{0}open") == "<span class=\"rs-badge rs-badge--open\">\u{FFFD}open</span>")
        let link = Support.cell(.link, "https://example.com/a\u{0}b")
        #expect(link == "<a href=\"https://example.com/a\u{FFFD}b\" rel=\"noopener noreferrer nofollow\">"
            + "https://example.com/a\u{FFFD}b</a>")
        // The key, written into the `data-key` attribute.
        let row = Support.text(Support.renderer(.text).renderRows([["id": "k\u{0}", "v": "v"]], startIndex: 0))
        #expect(row.hasPrefix("<tr data-key=\"k\u{FFFD}\" data-index=\"0\">"))
        #expect(!row.utf8.contains(0))
    }

    @Test(arguments: replaced)
    func everyOtherControlBecomesTheReplacementCharacter(control: Unicode.Scalar) {
        let text = "a" + String(Character(control)) + "b"
        #expect(HTMLEscaping.escaped(text) == "a\u{FFFD}b", "U+\(String(control.value, radix: 16))")
        #expect(Support.cell(.text, .string(text)) == "a\u{FFFD}b")
    }

    @Test func tabLineFeedAndFormFeedPassAndCarriageReturnIsNormalised() {
        #expect(HTMLEscaping.escaped("a\tb\nc\u{0C}d") == "a\tb\nc\u{0C}d")
        #expect(HTMLEscaping.escaped("a\r\nb") == "a\nb")           // one Character in Swift, two bytes
        #expect(HTMLEscaping.escaped("a\rb\r") == "a\nb\n")
        #expect(HTMLEscaping.escaped("\r\r\n\n") == "\n\n\n")
        #expect(HTMLEscaping.escaped("\r<") == "\n&lt;")
    }

    @Test func textAroundTheC1RangeIsUntouched() {
        // C2 A0-BF (no-break space, degree sign), other two-byte and longer sequences: copied as they are.
        let plain = "\u{A0}°©£ é ü → 東京 😀 \u{7E}"
        #expect(HTMLEscaping.escaped(plain) == plain)
        #expect(HTMLEscaping.escaped("\u{9F}\u{A0}\u{80}") == "\u{FFFD}\u{A0}\u{FFFD}")
    }

    @Test func aLoneC1LeadByteAtTheEndIsCopied() {
        var out: [UInt8] = []
        [UInt8(ascii: "a"), 0xC2].withUnsafeBufferPointer { HTMLEscaping.appendEscaped(bytes: $0, to: &out) }
        #expect(out == [UInt8(ascii: "a"), 0xC2])
    }

    /// The fuzz target's property, over every scalar below U+0100 in every position of every format.
    @Test(arguments: ColumnFormat.allCases)
    func noRawControlReachesARow(format: ColumnFormat) {
        for value in UInt32(0)..<0x100 {
            let character = String(Character(Unicode.Scalar(value)!))
            let text = character + "x" + character + "https://e.com/" + character
            let item: JSONValue = ["id": .string(character), "v": .string(text), "l": .string(character)]
            let renderer = Support.renderer(format, labelField: format == .link ? "l" : nil)
            let html = renderer.renderRows([item], startIndex: 0)
            #expect(Self.rawControl(in: html) == nil, "U+\(String(value, radix: 16)) in \(format)")
        }
    }

    /// The offset of the first raw C0 control but tab, LF and FF, CR, DEL or C1 control in `html`; nil if none.
    static func rawControl(in html: [UInt8]) -> Int? {
        for (index, byte) in html.enumerated() {
            switch byte {
            case 0x09, 0x0A, 0x0C: continue
            case 0x00...0x1F, 0x7F: return index
            case 0xC2 where index + 1 < html.count && (0x80...0x9F).contains(html[index + 1]): return index
            default: continue
            }
        }
        return nil
    }
}
