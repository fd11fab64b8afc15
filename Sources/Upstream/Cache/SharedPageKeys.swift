import Sealing

/// How one page cache names its pages in a shared store (docs/SCALING.md has the layout):
///
/// - page: `rowstream:page:v2:<table>:<digest>`
/// - its fetch lease: `rowstream:lease:v2:<table>:<digest>`
/// - landing notices, one channel for all: ``landingChannel``, each carrying the page key.
///
/// `<table>` is the table's name (letters, digits, `-` and `_` kept, anything else `_`, at most 64 characters), for
/// people reading the store. `<digest>` is 32 hex digits of HMAC-SHA-256 over the cursor, under a key that is
/// HMAC-SHA-256 of the table's name and its `scope` (the table's request with its query choice, headers and body:
/// ``PageSource/sharedScope``) under the operator's ``StoreKey`` (derived from the sealing key). So a cursor (a next
/// link may carry a token) and a request's API key never appear in a key; caches whose requests differ in anything
/// (another query choice, another API key or forwarded credential, another config) never share a page; long cursors
/// make short keys; and whoever reads the store without the sealing key cannot test a guessed request (a user name, a
/// credential) against its keys.
///
/// Values are bound to their key (``sealed(_:at:)``, ``opened(_:at:)``): `0x02` | HMAC-SHA-256 under the store key of
/// the key's name, the scope's key and the value | the value. A value copied from another key (another identity's
/// page, another cursor's) or written by anyone without the sealing key does not open: a miss.
///
/// A plain value: thread-safe.
public struct SharedPageKeys: Sendable, Equatable {
    /// The channel every landing notice goes to.
    public static let landingChannel = "rowstream:landed:v1"
    /// The table part of the keys.
    public let table: String
    private let name: String
    private let storeKey: StoreKey
    private let key: [UInt8]

    /// The first byte of a sealed value (this layout).
    static let sealFormat: UInt8 = 0x02
    /// Bytes a sealed value adds to the value.
    public static let sealOverhead = 1 + StoreKey.tagLength

    /// Keys for `table`'s pages fetched with the request `scope`, named and bound under `storeKey` (the operator's:
    /// ``SealingKeys/storeKey``, equal on every instance with the same key file).
    public init(table: String, scope: [UInt8], storeKey: StoreKey) {
        let shown = String(String.UnicodeScalarView(table.unicodeScalars.prefix(64).map { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-"
                || scalar == "_") ? scalar : "_"
        }))
        self.table = shown.isEmpty ? "_" : shown
        name = table
        self.storeKey = storeKey
        key = storeKey.digest(Array("rowstream shared page cache v2".utf8) + [0] + Array(table.utf8) + [0] + scope)
    }

    /// The keys of the same table's pages fetched with the request `scope` (another query choice).
    public func rescoped(to scope: [UInt8]) -> SharedPageKeys {
        SharedPageKeys(table: name, scope: scope, storeKey: storeKey)
    }

    /// The key of the page after `cursor` (nil: the first page).
    public func page(_ cursor: String?) -> String { "rowstream:page:v2:\(table):" + digest(cursor) }

    /// The key of the fetch lease of the page after `cursor`.
    public func lease(_ cursor: String?) -> String { "rowstream:lease:v2:\(table):" + digest(cursor) }

    /// `value` as stored at `key` (one of these keys' ``page(_:)``): bound to it by a tag.
    public func sealed(_ value: [UInt8], at key: String) -> [UInt8] {
        var stored = [Self.sealFormat]
        stored.reserveCapacity(Self.sealOverhead + value.count)
        stored += storeKey.tag(message(value[...], at: key))
        stored += value
        return stored
    }

    /// The value in `stored`, read at `key`, if its tag verifies: written at this very key by an instance with the
    /// same sealing key. Nil for anything else (moved from another key, altered, forged, under another key).
    public func opened(_ stored: [UInt8], at key: String) -> [UInt8]? {
        guard stored.count >= Self.sealOverhead, stored[0] == Self.sealFormat else { return nil }
        let value = stored[Self.sealOverhead...]
        guard storeKey.verifies(Array(stored[1..<Self.sealOverhead]), of: message(value, at: key)) else { return nil }
        return Array(value)
    }

    /// What a tag covers: the key's name and length, the scope's key, the value.
    private func message(_ value: ArraySlice<UInt8>, at key: String) -> [UInt8] {
        let name = Array(key.utf8)
        var message = withUnsafeBytes(of: UInt32(name.count).bigEndian, Array.init)
        message.reserveCapacity(4 + name.count + self.key.count + value.count)
        message += name
        message += self.key
        message += value
        return message
    }

    private func digest(_ cursor: String?) -> String {
        let message: [UInt8] = cursor.map { [2] + Array($0.utf8) } ?? [1]
        let hash = KeyedHash.hmacSHA256(key: key, message)
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(32)
        for byte in hash.prefix(16) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
