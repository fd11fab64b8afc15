import CCrypto

/// SHA-256 from OpenSSL's libcrypto (`EVP_Digest`): what API tokens are stored as (docs/SECURITY.md). A token is
/// 256 random bits, so one unsalted hash suffices: nobody guesses a preimage, and a leaked config holds no token.
///
/// Thread-safe: stateless.
public enum SHA256Digest {
    /// Bytes of a digest.
    public static let byteCount = 32

    /// The 32-byte SHA-256 of `bytes`.
    public static func hash<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        let input = Array(bytes)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = input.withUnsafeBytes { raw in
            digest.withUnsafeMutableBufferPointer { out in
                EVP_Digest(raw.baseAddress, raw.count, out.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        precondition(ok == 1 && Int(length) == byteCount, "libcrypto's SHA-256 failed")
        return Array(digest.prefix(byteCount))
    }

    /// `hash(_:)` of a string's UTF-8, as 64 lower-case hex digits (the config's `sha256` form).
    public static func hex(of text: String) -> String {
        hash(text.utf8).map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
        }.joined()
    }

    /// The 32 bytes of 64 hex digits (either case); nil for anything else.
    public static func bytes(hex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count == 2 * byteCount else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case 0x30...0x39: digit - 0x30
            case 0x61...0x66: digit - 0x61 + 10
            case 0x41...0x46: digit - 0x41 + 10
            default: nil
            }
        }
        var result: [UInt8] = []
        result.reserveCapacity(byteCount)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            result.append(high << 4 | low)
        }
        return result
    }
}
