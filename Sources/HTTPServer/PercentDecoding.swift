/// Percent-decoding ([RFC 3986 §2.1](https://www.rfc-editor.org/rfc/rfc3986#section-2.1)) and
/// `application/x-www-form-urlencoded` decoding. Pure functions; thread-safe.
enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` as space when `plusAsSpace`). Returns nil for a malformed escape
    /// or when the result is not valid UTF-8.
    static func decode(_ text: some StringProtocol, plusAsSpace: Bool = false) -> String? {
        // Most text has no escape (a table's name in its path): looked for in place, no array made.
        guard text.utf8.withContiguousStorageIfAvailable({ $0.contains(where: { isEscape($0, plusAsSpace) }) })
            ?? text.utf8.contains(where: { isEscape($0, plusAsSpace) }) else { return String(text) }
        return Array(text.utf8).withUnsafeBufferPointer { decode(bytes: $0, plusAsSpace: plusAsSpace) }
    }

    /// ``decode(_:plusAsSpace:)`` of bytes: nil for a malformed escape or when the result is not valid UTF-8.
    static func decode(bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool = false) -> String? {
        guard bytes.contains(where: { isEscape($0, plusAsSpace) }) else {
            // ASCII needs no validating (`String(validating:)` cost about 1,000 instructions for a four-letter value).
            if !bytes.contains(where: { $0 >= 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
            return String(validating: bytes, as: UTF8.self)
        }
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

    /// Whether `byte` changes when decoded: `%`, and `+` where it means a space (form and query values).
    static func isEscape(_ byte: UInt8, _ plusAsSpace: Bool) -> Bool {
        byte == UInt8(ascii: "%") || (plusAsSpace && byte == UInt8(ascii: "+"))
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
