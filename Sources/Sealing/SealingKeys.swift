/// The keys a server seals and opens tokens with (resume tokens, the JSON proxy's cursors): one current key
/// that seals, and previous keys that still open, for a rotation's grace period (docs/SCALING.md, "Keys").
///
/// Opening tries the current key first, then each previous one in order. AES-256-SIV authenticates (``CursorSeal``),
/// so a token sealed with a key not in the list never opens as something else: every key refuses it, and the
/// caller treats it as any invalid token (a resuming viewer starts over). Instances that share the keys read each
/// other's tokens, and a restarted instance reads the tokens of its previous run.
///
/// Thread-safe: an immutable value.
public struct SealingKeys: Sendable {
    /// Fewest bytes a configured key has: 256 bits of randomness.
    public static let minimumKeyBytes = 32

    private let current: CursorSeal
    private let previous: [CursorSeal]
    /// True for ``random()`` keys: made by this process, so its tokens open nowhere else, nor after a restart.
    public let isEphemeral: Bool
    /// How many keys open tokens (the current one and the previous ones).
    public var count: Int { 1 + previous.count }

    /// Seals with `current`; opens with `current`, then each of `previous`. Every key has at least
    /// ``minimumKeyBytes`` bytes, or ``SealingKeysError`` (`keyTooShort`, its line the key's 1-based position).
    public init(current: [UInt8], previous: [[UInt8]] = []) throws(SealingKeysError) {
        for (index, key) in ([current] + previous).enumerated() where key.count < Self.minimumKeyBytes {
            throw SealingKeysError.keyTooShort(file: nil, line: index + 1, bytes: key.count)
        }
        self.init(current: CursorSeal(key: current), previous: previous.map(CursorSeal.init(key:)), isEphemeral: false)
    }

    private init(current: CursorSeal, previous: [CursorSeal], isEphemeral: Bool) {
        self.current = current
        self.previous = previous
        self.isEphemeral = isEphemeral
    }

    /// One key of 32 fresh random bytes, made by this process: what a server uses when the operator configured
    /// none (tokens then do not survive a restart nor open on another instance).
    public static func random() -> SealingKeys {
        SealingKeys(current: .random(), previous: [], isEphemeral: true)
    }

    /// The keys of what the cluster's shared store holds (Redis: page keys and the tags binding values to them),
    /// derived from the current key: equal on every instance with the same key file, new with each rotation.
    public var storeKey: StoreKey { current.storeKey }

    /// `cursor` sealed with the current key for `scope`.
    public func seal(_ cursor: String, scope: String) -> String {
        current.seal(cursor, scope: scope)
    }

    /// A name for `material` (what a viewer's request forwards upstream: docs/SECURITY.md, "Each viewer's own
    /// upstream credentials"): base64url of its HMAC-SHA-256 under a key derived from the current key. Equal material
    /// names equally on every instance that shares the keys; it reveals nothing of the material, and changes when the
    /// current key does (a rotation).
    public func identity(of material: [UInt8]) -> String {
        Base64URL.encode(current.identity(of: material))
    }

    /// The cursor inside `sealed` if one of the keys sealed it for `scope` (the current key tried first); nil
    /// otherwise, and for input longer than `maxLength` (refused before any work).
    public func open(_ sealed: String, scope: String, maxLength: Int = CursorSeal.maxSealedLength) -> String? {
        guard sealed.utf8.count <= maxLength else { return nil }
        if let opened = current.open(sealed, scope: scope, maxLength: maxLength) { return opened }
        for key in previous {
            if let opened = key.open(sealed, scope: scope, maxLength: maxLength) { return opened }
        }
        return nil
    }
}

/// Keys never show in a log line, `print`, `dump` or a test failure: only how many there are.
extension SealingKeys: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "SealingKeys(\(count) key\(count == 1 ? "" : "s")\(isEphemeral ? ", random" : ""))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
