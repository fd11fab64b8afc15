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
/// - Tab and FF pass; everything else (non-ASCII included) is copied in runs (a string with nothing to
///   escape is one copy).
///
/// The output is safe in element content and in double- or single-quoted attributes, and holds no byte a parser
/// would report as a control character. Invalid UTF-8 given to `appendEscaped(bytes:)` is copied as it is.
///
/// Thread-safe: stateless.
public enum HTMLEscaping {
    /// Appends `s` escaped to `buffer`.
    public static func appendEscaped(_ s: String, to buffer: inout [UInt8]) {
        var s = s
        s.withUTF8 { appendEscaped(bytes: $0, to: &buffer) }
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
        var s = s
        s.withUTF8 { appendEscaped(bytes: $0, to: &writer) }
    }

    /// The ASCII bytes that need work, as bits of one word (all below 64): `"` 0x22, `&` 0x26, `'` 0x27, `<` 0x3C,
    /// `>` 0x3E, and the C0 controls except tab 0x09 and FF 0x0C (CR 0x0D is normalised, LF 0x0A written as the
    /// writer's line break).
    private static let specialMask: UInt64 = (1 << 0x22 | 1 << 0x26 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3E)
        | ((1 << 0x20) - 1) & ~(1 << 0x09 | 1 << 0x0C)

    /// The lead byte of U+0080-00BF in UTF-8: the C1 controls are `C2 80`-`C2 9F`.
    private static let c1Lead: UInt8 = 0xC2
    private static let delete: UInt8 = 0x7F

    /// Whether `byte` may need escaping: one compare and one bit test below 64; DEL and the C1 lead byte above
    /// (rare in text: no table, no extra work for ASCII letters).
    @inline(__always)
    static func isSpecial(_ byte: UInt8) -> Bool {
        byte < 64 ? (specialMask >> UInt64(byte)) & 1 != 0 : byte >= delete && (byte == delete || byte == c1Lead)
    }

    /// Appends raw UTF-8 bytes escaped to `writer`: runs of plain bytes are copied whole.
    static func appendEscaped(bytes: UnsafeBufferPointer<UInt8>, to writer: inout ByteWriter) {
        guard let start = bytes.baseAddress else { return }
        let count = bytes.count
        var runStart = 0
        var i = 0
        while i < count {
            let byte = start[i]
            guard isSpecial(byte) else {
                i &+= 1
                continue
            }
            // A C2 lead byte is a C1 control only before 80-9F (U+0080-009F); otherwise it starts plain text.
            if byte == c1Lead, !(i &+ 1 < count && start[i &+ 1] & 0xE0 == 0x80) {
                i &+= 1
                continue
            }
            writer.append(UnsafeBufferPointer(start: start + runStart, count: i &- runStart))
            switch byte {
            case 0x0D:
                // CR LF -> one line break (written for the LF next); lone CR -> a line break.
                if !(i &+ 1 < count && start[i &+ 1] == 0x0A) { writer.append(writer.lineBreak) }
            case 0x0A:
                writer.append(writer.lineBreak)
            case UInt8(ascii: "&"): writer.append("&amp;")
            case UInt8(ascii: "<"): writer.append("&lt;")
            case UInt8(ascii: ">"): writer.append("&gt;")
            case UInt8(ascii: "\""): writer.append("&quot;")
            case UInt8(ascii: "'"): writer.append("&#39;")
            default: writer.append(replacementCharacter)
            }
            i &+= byte == c1Lead ? 2 : 1
            runStart = i
        }
        writer.append(UnsafeBufferPointer(start: start + runStart, count: count &- runStart))
    }

    /// U+FFFD REPLACEMENT CHARACTER in UTF-8.
    private static let replacementCharacter: StaticString = "\u{FFFD}"
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
