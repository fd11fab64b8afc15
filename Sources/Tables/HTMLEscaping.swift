/// HTML escaping in one pass over UTF-8 bytes: `&` `<` `>` `"` `'` become entities, and characters the HTML
/// tokenizer reports as parse errors (WHATWG HTML, "Preprocessing the input stream") never reach the output raw:
///
/// - NUL and the other C0 controls except tab, LF and FF (U+0000-0008, U+000B, U+000E-001F), DEL (U+007F) and
///   the C1 controls (U+0080-009F) become U+FFFD, in text and attribute values alike (the tokenizer turns a NUL
///   in an attribute into U+FFFD and drops it from table text; the others are control-character parse errors,
///   and a numeric reference would not help: `&#0;` is U+FFFD and `&#x80;`-`&#x9F;` are read as windows-1252).
/// - CR is normalised as the tokenizer does it: CR LF becomes LF, a lone CR becomes LF.
/// - LF is written as the writer's `lineBreak` (LF itself unless the caller frames the output as it is written:
///   an SSE event's data writes `\ndata: `, so rendered rows need no second pass to split their lines).
/// - Tab and FF pass; everything else (non-ASCII included) is copied, eight bytes at a time while a word holds
///   nothing that needs work.
///
/// The output is safe in element content and in double- or single-quoted attributes, and holds no byte a parser
/// would report as a control character. Invalid UTF-8 given to `appendEscaped(bytes:)` is copied as it is.
///
/// Thread-safe: stateless.
public enum HTMLEscaping {
    /// Appends `s` escaped to `buffer`.
    public static func appendEscaped(_ s: String, to buffer: inout [UInt8]) {
        s.withUTF8Bytes { appendEscaped(bytes: $0, to: &buffer) }
    }

    /// `s` escaped, as a String (for callers outside the byte-buffer path).
    public static func escaped(_ s: String) -> String {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(s.utf8.count)
        appendEscaped(s, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Appends raw UTF-8 bytes escaped to `buffer`.
    public static func appendEscaped(bytes: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) {
        var writer = ByteWriter(capacity: bytes.count + bytes.count / 4)
        appendEscaped(bytes: bytes, to: &writer)
        writer.copy(to: &buffer)
    }

    /// Appends `s` escaped to `writer`.
    static func appendEscaped(_ s: String, to writer: inout ByteWriter) {
        s.withUTF8Bytes { appendEscaped(bytes: $0, to: &writer) }
    }

    /// The lead byte of U+0080-00BF in UTF-8: the C1 controls are `C2 80`-`C2 9F`.
    private static let c1Lead: UInt8 = 0xC2
    private static let delete: UInt8 = 0x7F

    /// Appends raw UTF-8 bytes escaped to `writer`: eight bytes at a time while none may need work (a word test,
    /// ``flags(_:)``), then byte by byte from the first that may to the end of its word. Writes straight into the
    /// writer's room, reserved per chunk of at most ``chunk`` input bytes for the longest replacement of each.
    static func appendEscaped(bytes: UnsafeBufferPointer<UInt8>, to writer: inout ByteWriter) {
        guard let start = bytes.baseAddress else { return }
        let count = bytes.count
        let lineBreak = writer.lineBreak
        let lineBreakWord = writer.lineBreakWord
        let lineBreakCount = lineBreak.utf8CodeUnitCount
        let expansion = max(6, lineBreakCount)   // `&quot;` or the line break, per input byte
        var i = 0
        while i < count {
            let end = min(count, i &+ chunk)
            writer.write(upTo: (end &- i) &* expansion &+ 8) { out in
                var j = 0
                while i < end {
                    var stop = end   // where the byte-by-byte loop below hands back to the word test
                    if i &+ 8 <= end {
                        let word = ByteWriter.load(start + i)
                        ByteWriter.store(word, at: out + j)
                        let flagged = flags(word)
                        guard flagged != 0 else {
                            i &+= 8
                            j &+= 8
                            continue
                        }
                        // The rest of this word byte by byte, from its first flagged byte: a word that holds one
                        // special often holds more (hostile or marked-up text), and testing the word again for each
                        // would cost more than the bytes.
                        stop = i &+ 8
                        let plain = flagged.trailingZeroBitCount >> 3   // bytes before the first flagged one
                        i &+= plain
                        j &+= plain
                    }
                    while i < stop {
                        let byte = start[i]
                        i &+= 1
                        if passes(byte) {
                            out[j] = byte
                            j &+= 1
                            continue
                        }
                        switch byte {
                        case UInt8(ascii: "&"): ByteWriter.store(amp, at: out + j); j &+= 5
                        case UInt8(ascii: "<"): ByteWriter.store(lt, at: out + j); j &+= 4
                        case UInt8(ascii: ">"): ByteWriter.store(gt, at: out + j); j &+= 4
                        case UInt8(ascii: "\""): ByteWriter.store(quot, at: out + j); j &+= 6
                        case UInt8(ascii: "'"): ByteWriter.store(apos, at: out + j); j &+= 5
                        case 0x0A, 0x0D:
                            // CR LF -> one line break (written for the LF next); a lone CR or an LF -> a line break.
                            if byte == 0x0D && i < count && start[i] == 0x0A { continue }
                            if lineBreakCount <= 8 {
                                ByteWriter.store(lineBreakWord, at: out + j)
                            } else {
                                (out + j).initialize(from: lineBreak.utf8Start, count: lineBreakCount)
                            }
                            j &+= lineBreakCount
                        case c1Lead:
                            if i < count && start[i] & 0xE0 == 0x80 {
                                // C2 80-9F: a C1 control (U+0080-009F).
                                ByteWriter.store(replacement, at: out + j)
                                j &+= 3
                                i &+= 1
                            } else {
                                // Any other C2 starts plain text.
                                out[j] = byte
                                j &+= 1
                            }
                        default:   // DEL and the other C0 controls (tab and FF passed above, by `passes`)
                            ByteWriter.store(replacement, at: out + j)
                            j &+= 3
                        }
                    }
                }
                return j
            }
        }
    }

    /// Whether `byte` is copied as it is (the switch above would copy it), tested without a branch per class: a
    /// byte of text that needs no work (letters, digits, spaces, punctuation, UTF-8) takes no jump through the switch.
    @inline(__always)
    private static func passes(_ byte: UInt8) -> Bool {
        let low = plainBelow64 >> UInt64(byte & 63) & 1 != 0
        let high = byte != delete && byte != c1Lead
        return byte < 64 ? low : high
    }

    /// Bit `b` set when byte `b` (below 64) passes as it is: tab, FF, space, `!#$%()*+,-./0-9:;=?`.
    private static let plainBelow64: UInt64 = 0xAFFF_FF3B_0000_1200

    /// Input bytes escaped per reserved chunk: bounds the room one call reserves (6 bytes each) for long text.
    private static let chunk = 4_096

    /// A word whose byte k has its high bit set if byte k of `word` may need work, and whose lowest set bit is in
    /// the first such byte (higher bytes may be set spuriously, by a borrow: callers use only the lowest): C0
    /// controls, `"` `&` `'` `<` `>`, DEL and the C1 lead byte C2. A word of plain text gives 0.
    @inline(__always)
    static func flags(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        /// High bit of each byte of `v` that is zero (exact up to the first).
        @inline(__always) func zeros(_ v: UInt64) -> UInt64 { (v &- ones) & ~v }
        let below32 = (word &- ones &* 0x20) & ~word   // bytes < 0x20
        let found = below32 | zeros(word ^ (ones &* 0x22)) | zeros((word | ones) ^ (ones &* 0x27))   // " & '
            | zeros(word ^ (ones &* 0x3C)) | zeros(word ^ (ones &* 0x3E)) | zeros(word ^ (ones &* 0x7F))
            | zeros(word ^ (ones &* UInt64(c1Lead)))
        return found & highs
    }

    /// The entities and U+FFFD, packed for one store (``ByteWriter/packed(_:)``).
    private static let amp: UInt64 = 0x3B_70_6D_61_26        // &amp;
    private static let lt: UInt64 = 0x3B_74_6C_26            // &lt;
    private static let gt: UInt64 = 0x3B_74_67_26            // &gt;
    private static let quot: UInt64 = 0x3B_74_6F_75_71_26    // &quot;
    private static let apos: UInt64 = 0x3B_39_33_23_26       // &#39;
    private static let replacement: UInt64 = 0xBD_BF_EF     // U+FFFD in UTF-8
}

extension Array where Element == UInt8 {
    /// Appends a literal (trusted markup) without going through `String`.
    @inline(__always)
    mutating func append(_ literal: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends the decimal digits of `value`.
    mutating func appendDecimal(_ value: Int) {
        var writer = ByteWriter(capacity: 24)
        writer.appendDecimal(value)
        writer.copy(to: &self)
    }
}
