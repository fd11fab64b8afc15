/// HTML escaping in one pass over UTF-8 bytes: `&` `<` `>` `"` `'` become entities; everything else
/// is copied in runs (a string with nothing to escape is one copy). The output is safe in element content and in
/// double- or single-quoted attributes.
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

    /// The special bytes as bits of one word: all are below 64 (`"` 0x22, `&` 0x26, `'` 0x27, `<` 0x3C, `>` 0x3E).
    private static let specialMask: UInt64 = 1 << 0x22 | 1 << 0x26 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3E

    /// Whether `byte` must be escaped: one compare and one bit test, no table.
    @inline(__always)
    static func isSpecial(_ byte: UInt8) -> Bool {
        byte < 64 && (specialMask >> UInt64(byte)) & 1 != 0
    }

    /// Appends raw UTF-8 bytes escaped to `writer`: runs of plain bytes are copied whole.
    static func appendEscaped(bytes: UnsafeBufferPointer<UInt8>, to writer: inout ByteWriter) {
        guard let start = bytes.baseAddress else { return }
        let count = bytes.count
        var runStart = 0
        var i = 0
        while i < count {
            let byte = start[i]
            if isSpecial(byte) {
                writer.append(UnsafeBufferPointer(start: start + runStart, count: i - runStart))
                appendEntity(byte, to: &writer)
                runStart = i + 1
            }
            i += 1
        }
        writer.append(UnsafeBufferPointer(start: start + runStart, count: count - runStart))
    }

    private static func appendEntity(_ byte: UInt8, to writer: inout ByteWriter) {
        switch byte {
        case UInt8(ascii: "&"): writer.append("&amp;")
        case UInt8(ascii: "<"): writer.append("&lt;")
        case UInt8(ascii: ">"): writer.append("&gt;")
        case UInt8(ascii: "\""): writer.append("&quot;")
        default: writer.append("&#39;")
        }
    }
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
