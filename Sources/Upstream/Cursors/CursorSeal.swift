import Foundation

/// Makes upstream cursors opaque and tamper-evident before they leave the server (proxy `next`, resume tokens).
///
/// Sealed form: `base64url(ciphertext) "." base64url(tag)`, where `tag = HMAC-SHA-256(macKey, scope NUL cursor)`
/// and the ciphertext is the cursor XOR a keystream of `HMAC-SHA-256(encKey, tag || counter)` blocks (a
/// deterministic SIV construction). A client cannot read one (a next link may carry an API key the upstream
/// echoed), forge or alter one, nor move one to another table (the scope, e.g. the table name, is signed in),
/// so it can never turn a cursor into an arbitrary upstream URL. Equal cursors seal equally.
///
/// The key is random per process unless given: sealed cursors do not survive a restart (a resuming viewer then
/// starts over). Thread-safe: immutable.
public struct CursorSeal: Sendable {
    private let macKey: [UInt8]
    private let encryptionKey: [UInt8]
    /// Longest sealed cursor accepted by `open`.
    public static let maxSealedLength = 8_192

    /// A seal with `key` (at least 16 bytes are advisable).
    public init(key: [UInt8]) {
        macKey = SHA256.hmac(key: key, message: Array("rowstream cursor mac".utf8))
        encryptionKey = SHA256.hmac(key: key, message: Array("rowstream cursor encryption".utf8))
    }

    /// A seal with 32 fresh random bytes.
    public static func random() -> CursorSeal {
        var generator = SystemRandomNumberGenerator()
        return CursorSeal(key: (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The sealed form of `cursor` for `scope`.
    public func seal(_ cursor: String, scope: String) -> String {
        let tag = tag(Array(cursor.utf8), scope: scope)
        return Self.base64url(crypt(Array(cursor.utf8), tag: tag)) + "." + Self.base64url(tag)
    }

    /// The cursor inside `sealed` if it was sealed by this key for `scope`; nil otherwise.
    public func open(_ sealed: String, scope: String) -> String? {
        guard sealed.utf8.count <= Self.maxSealedLength else { return nil }
        let parts = sealed.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let ciphertext = Self.decode(parts[0]), let tag = Self.decode(parts[1]) else {
            return nil
        }
        let plaintext = crypt(ciphertext, tag: tag)
        let expected = self.tag(plaintext, scope: scope)
        // Constant-time comparison: no early exit on the first differing byte.
        guard tag.count == expected.count else { return nil }
        var difference: UInt8 = 0
        for (a, b) in zip(tag, expected) { difference |= a ^ b }
        guard difference == 0 else { return nil }
        return String(validating: plaintext, as: UTF8.self)
    }

    private func tag(_ cursor: [UInt8], scope: String) -> [UInt8] {
        SHA256.hmac(key: macKey, message: Array(scope.utf8) + [0] + cursor)
    }

    /// XORs `bytes` with the keystream derived from `tag` (encrypts and decrypts alike).
    private func crypt(_ bytes: [UInt8], tag: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var counter: UInt32 = 0
        while out.count < bytes.count {
            let counterBytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: counter >> UInt32($0)) }
            let block = SHA256.hmac(key: encryptionKey, message: tag + counterBytes)
            for byte in block where out.count < bytes.count { out.append(bytes[out.count] ^ byte) }
            counter += 1
        }
        return out
    }

    private static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func decode(_ text: Substring) -> [UInt8]? {
        guard text.utf8.allSatisfy({ $0 == 0x2D || $0 == 0x5F || (0x30...0x39).contains($0)
            || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.utf8.count % 4 != 0 { base64.append("=") }
        return Data(base64Encoded: base64).map { [UInt8]($0) }
    }
}
