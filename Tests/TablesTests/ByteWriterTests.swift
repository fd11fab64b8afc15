import JSON
import Testing
@testable import Tables

/// The render path's byte writer and the byte-level helpers give exactly what the plain definitions give.
@Suite struct ByteWriterTests {
    /// Escaping as defined, one Character at a time through String.
    private func referenceEscape(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Deterministic text mixing plain runs, every special character and multi-byte scalars.
    private func sample(_ seed: Int, length: Int) -> String {
        let pieces = ["a", "Zz9", " ", "&", "<", ">", "\"", "'", "é", "東京", "😀", "plain words ", "&amp;"]
        var state = UInt64(truncatingIfNeeded: seed) &* 6364136223846793005 &+ 1442695040888963407
        var text = ""
        while text.utf8.count < length {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            text += pieces[Int(state >> 33) % pieces.count]
        }
        return text
    }

    /// Raw bytes of every length up to past the word copies (9-32 bytes copy as overlapping words), after any
    /// number of bytes already written, arrive whole and in order, and nothing around them changes.
    @Test func rawBytesOfEveryLengthAtEveryOffset() {
        let source = (0..<40).map { UInt8(0x41 + $0) }
        for before in 0..<9 {
            for length in 0...source.count {
                var writer = ByteWriter(capacity: 1)
                for k in 0..<before { writer.append(UInt8(0x30 + k)) }
                source.withUnsafeBufferPointer { writer.append(UnsafeBufferPointer(rebasing: $0[0..<length])) }
                writer.append("|")
                let expected = (0..<before).map { UInt8(0x30 + $0) } + source[0..<length] + [UInt8(ascii: "|")]
                #expect(writer.bytes == expected, "\(before) bytes, then \(length)")
            }
        }
    }

    @Test func escapingMatchesTheDefinitionAcrossGrowth() {
        for (seed, length) in [(1, 0), (2, 1), (3, 7), (4, 300), (5, 5_000), (6, 70_000)] {
            let text = sample(seed, length: length)
            #expect(HTMLEscaping.escaped(text) == referenceEscape(text))
            var writer = ByteWriter(capacity: 1)   // forces growth while escaping
            writer.append("<p>")
            HTMLEscaping.appendEscaped(text, to: &writer)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == "<p>" + referenceEscape(text))
        }
    }

    @Test func appendingToAnArrayKeepsWhatWasThere() {
        var buffer = Array("before|".utf8)
        HTMLEscaping.appendEscaped("<x>", to: &buffer)
        buffer.appendDecimal(-42)
        #expect(String(decoding: buffer, as: UTF8.self) == "before|&lt;x&gt;-42")
    }

    @Test(arguments: [(0, 1), (7, 2), (42, 2), (99, 2), (100, 2), (5, 4), (2026, 4), (123456, 4), (0, 0),
                      (UInt.max, 1), (UInt.max, 25), (1_000_000_007, 12)])
    func digitsArePaddedToTheMinimumWidth(value: UInt, width: Int) {
        var writer = ByteWriter(capacity: 1)
        writer.appendDigits(value, minimumWidth: width)
        let digits = String(value)
        let expected = String(repeating: "0", count: max(0, width - digits.count)) + digits
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
    }

    @Test func decimalsIncludeTheExtremes() {
        for value in [0, -1, 9, 10, Int.max, Int.min, -1_234_567] {
            var writer = ByteWriter(capacity: 1)
            writer.appendDecimal(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
        }
    }

    @Test(arguments: ["Open", "closed \"<x>\"", "ÉTÉ été", "東京 2", "😀😀", "", "A-b_c.D", String(repeating: "Xy", count: 40)])
    func slugsOnBytesMatchTheScalarRule(text: String) {
        var expected = ""
        for scalar in text.unicodeScalars.prefix(BadgeFormatting.maximumSlugLength) {
            switch scalar.value {
            case 0x61...0x7A, 0x30...0x39: expected.unicodeScalars.append(scalar)
            case 0x41...0x5A: expected.unicodeScalars.append(Unicode.Scalar(scalar.value + 0x20)!)
            default: expected += "-"
            }
        }
        var writer = ByteWriter(capacity: 4)
        BadgeFormatting.appendSlug(text, to: &writer)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
    }

    @Test func safeURLsAreFoundWithoutCopying() {
        #expect(LinkFormatting.safeURL("  https://x.test/a?b=<1>  ") == "https://x.test/a?b=<1>")
        #expect(LinkFormatting.safeURL("HTTP://X") == "HTTP://X")
        #expect(LinkFormatting.safeURL("javascript:alert(1)") == nil)
        #expect(LinkFormatting.safeURL("http:/x") == nil)
        #expect(LinkFormatting.safeURL(" \t ") == nil)
        #expect(LinkFormatting.safeURL("") == nil)
    }

    @Test func singleKeyAndDeepPathsLookUpAsJSONPathDoes() throws {
        let item: JSONValue = .object(["a": .int(1), "b": .array([.object(["c": .string("deep")])]), "n": .null])
        for text in ["a", "b[0].c", "n", "missing", "b[5].c", "[\"a\"]", ""] {
            let path = try JSONPath(text)
            #expect(FieldLookup(path).evaluate(item) == path.evaluate(item), "path \(text)")
            #expect(FieldLookup(path).evaluate(.array([item])) == path.evaluate(.array([item])), "path \(text)")
        }
    }

    @Test func rowsAppendedToABufferEqualTheRenderedRows() {
        let renderer = Support.renderer(.text)
        let items: [JSONValue] = (0..<300).map { .object(["id": .int(Int64($0)), "v": .string(sample($0, length: $0))]) }
        var buffer = Array("prefix".utf8)
        renderer.appendRows(items, startIndex: 10, to: &buffer)
        #expect(buffer == Array("prefix".utf8) + renderer.renderRows(items, startIndex: 10))
        var one: [UInt8] = []
        renderer.appendRow(items[3], index: 13, to: &one)
        #expect(String(decoding: one, as: UTF8.self)
            == "<tr data-key=\"3\" data-index=\"13\"><td class=\"rs-c rs-text\">" + referenceEscape(sample(3, length: 3))
            + "</td></tr>")
    }
}
