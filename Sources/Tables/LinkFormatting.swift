/// The `link` format's safety rule: only http and https URLs become `<a href>`.
///
/// Thread-safe: stateless.
enum LinkFormatting {
    /// The URL with leading and trailing whitespace and control characters removed, if its scheme is
    /// `http` or `https` (any case) followed by `://`; nil otherwise. So `javascript:`, `data:`,
    /// ` javascript:`, `JaVaScRiPt:`, `java\tscript:` and relative URLs never become links.
    static func safeURL(_ text: String) -> String? {
        let utf8 = text.utf8
        guard let first = utf8.firstIndex(where: { !isTrimmed($0) }),
              let last = utf8.lastIndex(where: { !isTrimmed($0) }) else { return nil }
        let trimmed = utf8[first...last]
        guard hasPrefix(trimmed, "http://") || hasPrefix(trimmed, "https://") else { return nil }
        return String(Substring(trimmed))
    }

    /// Whitespace and C0/DEL control characters, which browsers strip around URLs.
    private static func isTrimmed(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == 0x7F
    }

    /// ASCII case-insensitive prefix test; `prefix` must be lower-case.
    private static func hasPrefix(_ bytes: Substring.UTF8View, _ prefix: StaticString) -> Bool {
        guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
        var index = bytes.startIndex
        for k in 0..<prefix.utf8CodeUnitCount {
            var byte = bytes[index]
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte += 0x20 }
            guard byte == prefix.utf8Start[k] else { return false }
            index = bytes.index(after: index)
        }
        return true
    }
}
