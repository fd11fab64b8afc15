import CCrypto
import Foundation

/// Makes upstream cursors opaque and tamper-evident before they leave the server (proxy `next`, resume tokens).
///
/// Sealed form: `base64url(SIV || ciphertext)` (canonical, unpadded: ``Base64URL``), AES-256-SIV (RFC 5297) from
/// OpenSSL's libcrypto over a format byte (`0x02`) and the cursor, with the scope (`proxy:NAME`, `resume:NAME`) as
/// associated data; its 64-byte key is HKDF-SHA-256 of the seal key. A client
/// cannot read one (a next link may carry an API key the upstream echoed), forge or alter one, nor move one to
/// another table or route (the scope is authenticated), so it can never turn a cursor into an arbitrary upstream
/// URL. Equal cursors seal equally (SIV is deterministic): a loader whose next position equals the one it was
/// given ends the list (``Batches``), which needs equal sealed positions.
///
/// `open` costs microseconds whatever a client sends: input longer than `maxLength` is refused before any work,
/// and libcrypto's AES (AES-NI where the CPU has it) checks the SIV in one pass. Servers seal through
/// ``SealingKeys`` (the operator's keys, with rotation; random per process when none are configured).
///
/// Thread-safe: immutable; each call uses a cipher context of its own.
public struct CursorSeal: Sendable {
    private let key: [UInt8]
    /// The 32-byte HMAC key of ``identity(of:)``: HKDF-SHA-256 of the same seal key with another info string, so the
    /// two uses never share a key.
    private let identityKey: [UInt8]
    /// The keys of what the cluster's shared store holds (``StoreKey``), derived from the same seal key.
    let storeKey: StoreKey
    /// Longest sealed text `open` reads by default: a cursor inside a `Last-Event-ID` resume token (up to
    /// ~3 KiB of cursor; room for the resume token's own fields is the token's business). Longer: refused unread.
    public static let maxSealedLength = 4_096
    /// Longest sealed cursor the JSON proxy's `?cursor=` takes (an upstream cursor up to ~1.5 KiB; real
    /// cursors and next links are tens to hundreds of bytes). The proxy refuses to hand out a longer `next`.
    public static let maxProxyCursorLength = 2_048

    private static let tagLength = 16
    /// The first plaintext byte: this format (and never an empty plaintext, which libcrypto's SIV cannot seal).
    private static let format: UInt8 = 0x02

    /// A seal with `key` (at least 16 random bytes are advisable).
    public init(key: [UInt8]) {
        self.key = Self.deriveKey(from: key, info: "rowstream cursor seal v2: AES-256-SIV", length: 64)
        identityKey = Self.deriveKey(from: key, info: "rowstream viewer identity v1: HMAC-SHA-256", length: 32)
        storeKey = StoreKey { info in Self.deriveKey(from: key, info: info, length: 32) }
    }

    /// HMAC-SHA-256 of `material` under a key derived from this seal's key: a name for a secret (what a viewer's
    /// request forwards upstream) that reveals nothing of it and that nobody without the key can compute or aim at.
    public func identity(of material: [UInt8]) -> [UInt8] {
        KeyedHash.hmacSHA256(key: identityKey, material)
    }

    /// A seal with 32 fresh random bytes.
    public static func random() -> CursorSeal {
        var generator = SystemRandomNumberGenerator()
        return CursorSeal(key: (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The sealed form of `cursor` for `scope`.
    public func seal(_ cursor: String, scope: String) -> String {
        let sealed = run(encrypt: true, [Self.format] + Array(cursor.utf8), tag: nil, scope: scope)
        guard let sealed else { preconditionFailure("libcrypto failed to seal with AES-256-SIV") }
        return Base64URL.encode(sealed.tag + sealed.output)
    }

    /// The cursor inside `sealed` if it was sealed by this key for `scope`; nil otherwise (also for input longer
    /// than `maxLength`, refused before decoding).
    public func open(_ sealed: String, scope: String, maxLength: Int = maxSealedLength) -> String? {
        guard sealed.utf8.count <= maxLength, let bytes = Base64URL.decode(sealed), bytes.count >= Self.tagLength,
              let opened = run(encrypt: false, Array(bytes[Self.tagLength...]), tag: Array(bytes[..<Self.tagLength]),
                               scope: scope)
        else { return nil }
        guard opened.output.first == Self.format else { return nil }
        return String(validating: opened.output.dropFirst(), as: UTF8.self)
    }

    /// One AES-256-SIV operation: `input` sealed (its SIV returned as `tag`), or opened and checked against `tag`
    /// (nil when it does not match: forged, altered, another scope or key).
    private func run(encrypt: Bool, _ input: [UInt8], tag: [UInt8]?, scope: String) -> (output: [UInt8], tag: [UInt8])? {
        guard let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        var tag = tag ?? [UInt8](repeating: 0, count: Self.tagLength)
        var output = [UInt8](repeating: 0, count: input.count)
        var length: Int32 = 0
        let scope = Array(scope.utf8)
        let ok = key.withUnsafeBufferPointer { key -> Bool in
            guard EVP_CipherInit_ex2(context, Self.cipher.pointer, key.baseAddress, nil, encrypt ? 1 : 0, nil) == 1,
                  encrypt || ccrypto_aead_set_tag(context, Int32(Self.tagLength), &tag) == 1,
                  EVP_CipherUpdate(context, nil, &length, scope, Int32(scope.count)) == 1,
                  EVP_CipherUpdate(context, &output, &length, input, Int32(input.count)) == 1,
                  Int(length) == input.count
            else { return false }
            var final = [UInt8](repeating: 0, count: 16)
            guard EVP_CipherFinal_ex(context, &final, &length) == 1 else { return false }
            return !encrypt || ccrypto_aead_get_tag(context, Int32(Self.tagLength), &tag) == 1
        }
        return ok ? (output, tag) : nil
    }

    /// A `length`-byte key (the AES-256-SIV key: 64) as HKDF-SHA-256 (RFC 5869) of `secret`, bound to one use by
    /// its `info` string.
    private static func deriveKey(from secret: [UInt8], info: String, length wanted: Int) -> [UInt8] {
        var key = [UInt8](repeating: 0, count: wanted)
        var length = key.count
        let info = Array(info.utf8)
        let salt = Array("rowstream".utf8)
        guard let context = EVP_PKEY_CTX_new_id(ccrypto_pkey_hkdf(), nil) else {
            preconditionFailure("libcrypto has no HKDF")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_derive_init(context) == 1,
              EVP_PKEY_CTX_set_hkdf_md(context, EVP_sha256()) == 1,
              EVP_PKEY_CTX_set1_hkdf_salt(context, salt, Int32(salt.count)) == 1,
              EVP_PKEY_CTX_set1_hkdf_key(context, secret, Int32(secret.count)) == 1,
              EVP_PKEY_CTX_add1_hkdf_info(context, info, Int32(info.count)) == 1,
              EVP_PKEY_derive(context, &key, &length) == 1, length == wanted
        else { preconditionFailure("libcrypto failed to derive the cursor seal's key") }
        return key
    }

    /// libcrypto's AES-256-SIV, fetched once. Fetched algorithm objects are immutable and may be shared by
    /// threads (OpenSSL 3 "Library contexts and fetching"), hence `@unchecked Sendable`.
    private struct Cipher: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private static let cipher: Cipher = {
        guard let pointer = EVP_CIPHER_fetch(nil, "AES-256-SIV", nil) else {
            preconditionFailure("libcrypto has no AES-256-SIV (OpenSSL 3.0 or later is required)")
        }
        return Cipher(pointer: pointer)
    }()
}

/// A seal's key never shows in a log line, `print`, `dump` or a test failure.
extension CursorSeal: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "CursorSeal" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
