/// The `link` format's safety rule: only http and https URLs become `<a href>`.
///
/// Thread-safe: stateless.
enum LinkFormatting {
    /// The URL with leading and trailing whitespace and control characters removed, if its scheme is
    /// `http` or `https` (any case) followed by `://`; nil otherwise. So `javascript:`, `data:`,
    /// ` javascript:`, `JaVaScRiPt:`, `java\tscript:` and relative URLs never become links.
    static func safeURL(_ text: String) -> String? {
        text.withUTF8Bytes { bytes in
            safeRange(bytes).map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
        }
    }

    /// Where in `bytes` the safe URL is (the rule of ``safeURL(_:)``), without copying; nil if it is not one.
    static func safeRange(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard let first = bytes.firstIndex(where: { !isTrimmed($0) }),
              let last = bytes.lastIndex(where: { !isTrimmed($0) }) else { return nil }
        let trimmed = UnsafeBufferPointer(rebasing: bytes[first...last])
        guard hasPrefix(trimmed, "http://") || hasPrefix(trimmed, "https://") else { return nil }
        return first..<(last + 1)
    }

    /// Whitespace and C0/DEL control characters, which browsers strip around URLs.
    private static func isTrimmed(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == 0x7F
    }

    /// ASCII case-insensitive prefix test; `prefix` must be lower-case.
    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
        for k in 0..<prefix.utf8CodeUnitCount {
            var byte = bytes[k]
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte += 0x20 }
            guard byte == prefix.utf8Start[k] else { return false }
        }
        return true
    }
}
