import Foundation
import Sealing

/// One API token a server accepts as `Authorization: Bearer TOKEN`: stored as its SHA-256 (`rowstream hash-token`
/// prints it), never as the token. The token's name is the viewer's name in allow lists.
///
/// Thread-safe: a value.
public struct APIToken: Sendable, Equatable {
    public let name: String
    /// SHA-256 of the token's UTF-8 bytes.
    public let digest: [UInt8]
    public var groups: Set<String>
    /// After this instant the token is refused (401); nil: never.
    public var expires: Date?

    /// A token stored as `sha256`, 64 hex digits; nil for anything else.
    public init?(name: String, sha256: String, groups: Set<String> = [], expires: Date? = nil) {
        guard let digest = SHA256Digest.bytes(hex: sha256) else { return nil }
        self.name = name
        self.digest = digest
        self.groups = groups
        self.expires = expires
    }

    /// The hex digest to store for `token` (what `rowstream hash-token` prints).
    public static func hash(_ token: String) -> String { SHA256Digest.hex(of: token) }

    /// A fresh token: 32 random bytes as base64url (43 characters).
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The token of `tokens` whose digest is that of `presented` and that has not expired at `now`, compared in
    /// constant time (every token is compared: the time does not tell which one matched).
    static func match(_ presented: String, in tokens: [APIToken], now: Date) -> APIToken? {
        let digest = SHA256Digest.hash(presented.utf8)
        var found: APIToken?
        for token in tokens where ConstantTime.equal(digest, token.digest) { found = token }
        guard let found, found.expires.map({ now < $0 }) ?? true else { return nil }
        return found
    }
}
