/// The token of an `Authorization: Bearer TOKEN` header (RFC 6750 §2.1): the scheme in any case, one or more
/// spaces, then a token68 (letters, digits, `-._~+/`, trailing `=`) of at most ``maxLength`` characters. Anything
/// else is no credential. A pure function of the header's text (fuzzed: `FuzzAccessCredentials`).
///
/// Thread-safe: stateless.
package enum BearerCredential {
    /// The longest token read; longer headers are refused unread (tokens are 43 characters).
    public static let maxLength = 512

    /// The token in `header`, or nil.
    public static func token(from header: String) -> String? {
        let bytes = Array(header.utf8)
        let scheme = Array("bearer".utf8)
        guard bytes.count > scheme.count + 1, bytes.count <= scheme.count + 1 + maxLength + 16 else { return nil }
        for (index, letter) in scheme.enumerated() where bytes[index] | 0x20 != letter { return nil }
        var start = scheme.count
        guard bytes[start] == 0x20 else { return nil }
        while start < bytes.count, bytes[start] == 0x20 { start += 1 }
        let token = bytes[start...]
        guard !token.isEmpty, token.count <= maxLength else { return nil }
        var padding = false
        for byte in token {
            if byte == 0x3D { padding = true; continue }
            guard !padding, isToken68(byte) else { return nil }
        }
        guard token.first != 0x3D else { return nil }
        return String(decoding: token, as: UTF8.self)
    }

    private static func isToken68(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E, 0x2B, 0x2F: true
        default: false
        }
    }
}
