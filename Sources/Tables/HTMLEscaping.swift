/// HTML escaping in one pass over UTF-8 bytes: `&` `<` `>` `"` `'` become entities; everything else
/// is copied in runs. The output is safe in element content and in double- or single-quoted attributes.
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
        var runStart = 0
        for i in 0..<bytes.count {
            let entity: StaticString
            switch bytes[i] {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            case UInt8(ascii: "\""): entity = "&quot;"
            case UInt8(ascii: "'"): entity = "&#39;"
            default: continue
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
            buffer.append(entity)
            runStart = i + 1
        }
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
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
        if value < 0 { append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude, minimumWidth: 1)
    }

    /// Appends the digits of `value`, zero-padded to `minimumWidth`.
    mutating func appendDigits(_ value: UInt, minimumWidth: Int) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            var count = 0
            var v = value
            repeat {
                scratch[count] = UInt8(v % 10) + 0x30
                v /= 10
                count += 1
            } while v > 0
            for _ in count..<Swift.max(minimumWidth, count) { append(UInt8(ascii: "0")) }
            for i in stride(from: count - 1, through: 0, by: -1) { append(scratch[i]) }
        }
    }
}
