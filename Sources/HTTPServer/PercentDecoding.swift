/// Percent-decoding ([RFC 3986 §2.1](https://www.rfc-editor.org/rfc/rfc3986#section-2.1)) and
/// `application/x-www-form-urlencoded` decoding. Pure functions; thread-safe.
enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` as space when `plusAsSpace`). Returns nil for a malformed escape
    /// or when the result is not valid UTF-8.
    static func decode(_ text: some StringProtocol, plusAsSpace: Bool = false) -> String? {
        func isEscape(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "%") || (plusAsSpace && byte == UInt8(ascii: "+")) }
        // Most text has no escape (a table's name in its path): looked for in place, no array made.
        guard text.utf8.withContiguousStorageIfAvailable({ $0.contains(where: isEscape) })
            ?? text.utf8.contains(where: isEscape) else { return String(text) }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                else { return nil }
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
