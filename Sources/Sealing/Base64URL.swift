import Foundation

/// base64url without padding (RFC 4648, section 5): the one spelling of every token and sealed cursor
/// (resume and page tokens, sealed cursors, a walk's key window). Works on bytes, with no Foundation string
/// work: decoding runs on every resume and proxy request.
///
/// Decoding is strict: only the canonical unpadded form is read, so each value has exactly one spelling.
///
/// Thread-safe: stateless.
package enum Base64URL {
    /// The canonical unpadded base64url text of `bytes`.
    package static func encode(_ bytes: [UInt8]) -> String {
        var out = [UInt8](Data(bytes).base64EncodedData())
        while out.last == UInt8(ascii: "=") { out.removeLast() }
        return String(decoding: urlAlphabet(out), as: UTF8.self)
    }

    /// Standard base64 characters in the URL alphabet (`+` -> `-`, `/` -> `_`; padding left as it is).
    package static func urlAlphabet(_ standard: [UInt8]) -> [UInt8] {
        standard.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: "-") : $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0 }
    }

    /// The bytes of canonical unpadded base64url `text`; nil for any other character (padding included), a
    /// length no encoding has, or set unused bits in the last character (which would give one value several
    /// spellings).
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var chars = Array(text.utf8)
        guard chars.count % 4 != 1 else { return nil }
        var last: UInt8 = 0
        for index in chars.indices {
            let char = chars[index]
            switch char {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): last = char - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): last = char - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): last = char - UInt8(ascii: "0") + 52
            case UInt8(ascii: "-"): last = 62; chars[index] = UInt8(ascii: "+")
            case UInt8(ascii: "_"): last = 63; chars[index] = UInt8(ascii: "/")
            default: return nil
            }
        }
        let unusedBits: UInt8 = switch chars.count % 4 { case 2: 0x0F; case 3: 0x03; default: 0 }
        guard last & unusedBits == 0 else { return nil }
        chars += repeatElement(UInt8(ascii: "="), count: (4 - chars.count % 4) % 4)
        return Data(base64Encoded: Data(chars)).map { [UInt8]($0) }
    }
}
