import Testing
@testable import Tables

/// The escaper reads eight bytes a word (issue 17 part 5): every byte that needs work is found wherever it falls in
/// a word, at a word's edge, in the short tail, and across the 4 KB reserve chunks, with either line break.
@Suite struct WordEscapingTests {
    /// The escaping rule (HTMLEscaping's header), one byte at a time.
    static func escapedByTheRule(_ bytes: [UInt8], lineBreak: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            i += 1
            switch byte {
            case UInt8(ascii: "&"): out += Array("&amp;".utf8)
            case UInt8(ascii: "<"): out += Array("&lt;".utf8)
            case UInt8(ascii: ">"): out += Array("&gt;".utf8)
            case UInt8(ascii: "\""): out += Array("&quot;".utf8)
            case UInt8(ascii: "'"): out += Array("&#39;".utf8)
            case 0x0D: if !(i < bytes.count && bytes[i] == 0x0A) { out += lineBreak }
            case 0x0A: out += lineBreak
            case 0x09, 0x0C: out.append(byte)
            case 0x00..<0x20, 0x7F: out += Array("\u{FFFD}".utf8)
            case 0xC2 where i < bytes.count && (0x80...0x9F).contains(bytes[i]):
                out += Array("\u{FFFD}".utf8)
                i += 1
            default: out.append(byte)
            }
        }
        return out
    }

    /// What needs work, what looks close to it (`=` `?` `%` beside `<` `>` `&`), tab and FF, and other UTF-8.
    static let pieces = ["&", "<", ">", "\"", "'", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}", "\r", "\n", "\r\n", "\n\r",
                         "\t", "\u{0C}", "\u{80}", "\u{85}", "\u{9F}", "\u{A0}", "é", "東", "😀", "=", "?", "%", " "]

    static func check(_ text: String, lineBreak: StaticString) {
        var writer = ByteWriter(capacity: 1, lineBreak: lineBreak)
        writer.append("<p>")
        var text = text
        text.withUTF8 { HTMLEscaping.appendEscaped(bytes: $0, to: &writer) }
        let expected = Array("<p>".utf8) + escapedByTheRule(Array(text.utf8), lineBreak: Array(lineBreak.description.utf8))
        #expect(writer.bytes == expected, "\(text.debugDescription)")
    }

    @Test(arguments: pieces)
    func aPieceAtEveryOffsetOfAWord(piece: String) {
        for before in 0..<20 {
            for after in [0, 1, 7, 8, 13] {
                let text = String(repeating: "a", count: before) + piece + String(repeating: "b", count: after)
                Self.check(text, lineBreak: "\n")
                Self.check(text + piece + text, lineBreak: "\ndata: ")
            }
        }
    }

    /// Every byte value, at every offset of a word and in the short tail, escapes by the rule: the escaper tells
    /// the bytes that pass as they are by value (`HTMLEscaping.passes`), not through its switch.
    @Test func everyByteValueAtEveryOffset() {
        for value in UInt8.min...UInt8.max {
            for before in 0..<12 {
                let bytes = [UInt8](repeating: 0x61, count: before) + [value] + [UInt8](repeating: 0x62, count: 3)
                var writer = ByteWriter(capacity: 1)
                bytes.withUnsafeBufferPointer { HTMLEscaping.appendEscaped(bytes: $0, to: &writer) }
                #expect(writer.bytes == Self.escapedByTheRule(bytes, lineBreak: [0x0A]), "byte \(value) after \(before)")
            }
        }
    }

    @Test func piecesAcrossTheReserveChunks() {
        for piece in ["\r\n", "\u{85}", "&", "😀", "\u{0}"] {
            for before in 4_086..<4_100 {
                let text = String(repeating: "x", count: before) + piece + String(repeating: "<y>", count: 3_000)
                Self.check(text, lineBreak: "\ndata: ")
            }
        }
    }

    @Test func aLineBreakLongerThanAWordIsWrittenWhole() {
        Self.check("one\ntwo\r\nthree\rfour words and more\n", lineBreak: "\n<br class=\"x\">")
    }
}
