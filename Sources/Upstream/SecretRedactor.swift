import Foundation
import Sealing

/// Replaces every secret (the values of environment variables a config references) in a text by `[redacted]`,
/// in every form the server sends it and an upstream may echo it back in its error text:
///
/// - as is (a header value such as `Bearer s3cr3t`, a URL, a JSON body);
/// - percent-encoded (a query value: `%2B` or `%2b`, and `+` or `%20` for a space), byte by byte, so any mix
///   of encoded and plain characters matches;
/// - JSON-escaped (`\"`, `\\`, `\/`, `\n`, `\u002B`, ...), as in a body or an echoed JSON string;
/// - base64 and base64url, for secrets of 5 bytes or more (a Basic credential, a token the upstream re-encodes),
///   at each of the three byte alignments inside a longer encoded text (the characters that depend on the
///   secret alone);
/// - cut off at the end of the text (the first 8 bytes or more of a secret, as an upstream that shortens its
///   echo leaves it);
/// - in any letter case (ASCII): an upstream that upper- or lower-cases what it echoes (`S3CR3T+T0KEN`), also
///   inside each of the forms above (`%2b`, `\u002B`, a base64 text in upper case).
///
/// Redact before shortening a text: a secret cut in half no longer matches whole. Values shorter than 4 bytes
/// are not secrets here (they would redact ordinary words). Thread-safe: an immutable value.
public struct SecretRedactor: Sendable {
    public static let replacement = "[redacted]"
    /// Secrets, longest first (so none is half-redacted by a shorter one inside it).
    private let secrets: [[UInt8]]
    /// The base64 and base64url spellings of each secret, at each alignment.
    private let encoded: [[UInt8]]

    /// A redactor of `secrets` (values under 4 bytes are ignored).
    public init(secrets: [String]) {
        let values = Set(secrets.map { Array($0.utf8) }).filter { $0.count >= 4 }
        self.secrets = values.sorted { $0.count > $1.count }
        var encoded: Set<[UInt8]> = []
        for secret in values {
            for alignment in 0..<3 {
                let text = Data([UInt8](repeating: 0, count: alignment) + secret).base64EncodedString()
                let all = Array(text.utf8)
                // Characters whose 6 bits all come from the secret.
                let start = (8 * alignment + 5) / 6, end = 8 * (alignment + secret.count) / 6
                guard end - start >= 6 else { continue }
                let core = Array(all[start..<end])
                encoded.insert(core)
                encoded.insert(Base64URL.urlAlphabet(core))
            }
        }
        self.encoded = encoded.sorted { $0.count > $1.count }
    }

    /// No secrets: `redact` returns its input.
    public static let none = SecretRedactor(secrets: [])

    /// `text` with every form of every secret replaced by `[redacted]`.
    public func redact(_ text: String) -> String {
        guard !secrets.isEmpty else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var position = 0
        var changed = false
        while position < bytes.count {
            if let end = match(bytes, at: position) {
                out += Self.replacement.utf8
                position = end
                changed = true
            } else {
                out.append(bytes[position])
                position += 1
            }
        }
        return changed ? String(decoding: out, as: UTF8.self) : text
    }

    /// Where a form of a secret that starts at `position` ends; nil if none starts there.
    private func match(_ bytes: [UInt8], at position: Int) -> Int? {
        for secret in secrets {
            if let end = Self.match(secret[...], in: bytes, at: position, matched: 0) { return end }
        }
        for spelling in encoded where bytes[position...].starts(with: spelling, by: Self.sameIgnoringCase) {
            return position + spelling.count
        }
        return nil
    }

    /// Shortest prefix of a secret that counts when a text ends inside it.
    private static let minimumCutPrefix = 8

    /// Where `secret` (its bytes from here on) ends if it starts at `position`, each byte in any of its forms.
    private static func match(_ secret: ArraySlice<UInt8>, in bytes: [UInt8], at position: Int, matched: Int) -> Int? {
        guard let byte = secret.first else { return position }
        if position == bytes.count { return matched >= minimumCutPrefix ? position : nil }
        let widths = widths(of: byte, in: bytes, at: position)
        for width in widths {
            if let end = match(secret.dropFirst(), in: bytes, at: position + width, matched: matched + 1) { return end }
        }
        // The text ends inside an escape (`%2`, `\u00`) after enough of the secret.
        if widths.isEmpty, matched >= minimumCutPrefix, bytes.count - position < 6,
           bytes[position] == UInt8(ascii: "%") || bytes[position] == UInt8(ascii: "\\") {
            return bytes.count
        }
        return nil
    }

    /// The lengths of the spellings of `byte` that start at `position`, longest first (`100%25` is all of
    /// `100%`): a JSON escape (6 or 2), `%XX` (3), itself or `+` for a space (1).
    private static func widths(of byte: UInt8, in bytes: [UInt8], at position: Int) -> [Int] {
        var widths: [Int] = []
        let first = bytes[position]
        if first == UInt8(ascii: "%"), let value = hex(bytes, position + 1, count: 2), sameIgnoringCase(UInt8(value), byte) {
            widths.append(3)
        }
        if first == UInt8(ascii: "\\"), position + 1 < bytes.count {
            let escaped: UInt8? = switch bytes[position + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes[position + 1]
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "t"): 0x09
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            default: nil
            }
            if escaped == byte { widths.append(2) }
            if bytes[position + 1] == UInt8(ascii: "u"), let value = hex(bytes, position + 2, count: 4), value < 0x80,
               sameIgnoringCase(UInt8(value), byte) {
                widths.insert(6, at: 0)
            }
        }
        if sameIgnoringCase(first, byte) || (first == UInt8(ascii: "+") && byte == UInt8(ascii: " ")) { widths.append(1) }
        return widths
    }

    /// Whether two bytes are the same but for the case of an ASCII letter.
    private static func sameIgnoringCase(_ a: UInt8, _ b: UInt8) -> Bool {
        a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= UInt8(ascii: "a") && (a | 0x20) <= UInt8(ascii: "z"))
    }

    /// The value of `count` hex digits (either case) at `start`; nil if they are not all there.
    private static func hex(_ bytes: [UInt8], _ start: Int, count: Int) -> Int? {
        guard start + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[start..<start + count] {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value * 16 + Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value * 16 + Int(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = value * 16 + Int(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
        }
        return value
    }
}
