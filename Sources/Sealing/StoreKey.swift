/// The keys of what Rowstream writes to a shared store all instances of a cluster read (Redis: docs/SCALING.md,
/// "A Redis you cannot trust"): one names keys (``digest(_:)``: a shared page's key is a digest of its table, request
/// and cursor), the other binds each value to the key it is stored at (``tag(_:)``). Both are HMAC-SHA-256 under
/// keys derived by HKDF-SHA-256 from the operator's current sealing key, each with an info string of its own, so no
/// key is shared with the cursor seal or the viewer identity (``SealingKeys/storeKey``).
///
/// So whoever can read the store cannot test guessed names or credentials against its keys (they are keyed by a
/// secret Redis never sees), and whoever can write to it cannot move a value to another key (another identity's page,
/// another cursor's) nor forge one: its tag no longer verifies, and a value that fails is a miss.
///
/// Rotation: a new current key names every key anew, so values written under the old one are never read again (a
/// cache's values live seconds to minutes); previous keys are not tried.
///
/// Thread-safe: an immutable value.
public struct StoreKey: Sendable, Equatable {
    /// Bytes of a ``tag(_:)``.
    public static let tagLength = 32

    private let digestKey: [UInt8]
    private let tagKey: [UInt8]

    /// The store keys `derive` makes for each one's info string (HKDF of a ``CursorSeal``'s key).
    init(deriving derive: (String) -> [UInt8]) {
        digestKey = derive("rowstream shared store names v1: HMAC-SHA-256")
        tagKey = derive("rowstream shared store values v1: HMAC-SHA-256")
    }

    /// A store key of 32 fresh random bytes (tests; a process alone).
    public static func random() -> StoreKey {
        CursorSeal.random().storeKey
    }

    /// The 32-byte HMAC-SHA-256 of `message` under the naming key.
    public func digest(_ message: [UInt8]) -> [UInt8] {
        KeyedHash.hmacSHA256(key: digestKey, message)
    }

    /// The 32-byte HMAC-SHA-256 of `message` under the value key: what binds a value to its key.
    public func tag(_ message: [UInt8]) -> [UInt8] {
        KeyedHash.hmacSHA256(key: tagKey, message)
    }

    /// Whether `tag` is ``tag(_:)`` of `message` (compared in constant time).
    public func verifies(_ tag: [UInt8], of message: [UInt8]) -> Bool {
        ConstantTime.equal(tag, self.tag(message))
    }
}

/// Keys never show in a log line, `print`, `dump` or a test failure.
extension StoreKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "StoreKey" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
