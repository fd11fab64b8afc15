import Sealing

/// How one page cache names its pages in a shared store (docs/SCALING.md has the layout):
///
/// - page: `rowstream:page:v1:<table>:<digest>`
/// - its fetch lease: `rowstream:lease:v1:<table>:<digest>`
/// - landing notices, one channel for all: ``landingChannel``, each carrying the page key.
///
/// `<table>` is the table's name (letters, digits, `-` and `_` kept, anything else `_`, at most 64 characters), for
/// people reading the store. `<digest>` is 32 hex digits of HMAC-SHA-256 over the cursor, under a key made of the
/// optional cluster `secret`, the table's name and its `scope` (the table's request with its query choice, headers and
/// body: ``PageSource/sharedScope``). So a cursor (a next link may carry a token) and a request's API key never
/// appear in a key; caches whose requests differ in anything (another query choice, another API key, another config)
/// never share a page; and long cursors make short keys.
///
/// A plain value: thread-safe.
public struct SharedPageKeys: Sendable, Equatable {
    /// The channel every landing notice goes to.
    public static let landingChannel = "rowstream:landed:v1"
    /// The table part of the keys.
    public let table: String
    private let name: String
    private let secret: [UInt8]
    private let key: [UInt8]

    /// Keys for `table`'s pages fetched with the request `scope`; `secret` (shared by the cluster, may be empty)
    /// keys the digests.
    public init(table: String, scope: [UInt8], secret: [UInt8] = []) {
        let shown = String(String.UnicodeScalarView(table.unicodeScalars.prefix(64).map { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-"
                || scalar == "_") ? scalar : "_"
        }))
        self.table = shown.isEmpty ? "_" : shown
        name = table
        self.secret = secret
        key = KeyedHash.hmacSHA256(key: Array("rowstream shared page cache v1".utf8) + secret,
                                   Array(table.utf8) + [0] + scope)
    }

    /// The keys of the same table's pages fetched with the request `scope` (another query choice).
    public func rescoped(to scope: [UInt8]) -> SharedPageKeys {
        SharedPageKeys(table: name, scope: scope, secret: secret)
    }

    /// The key of the page after `cursor` (nil: the first page).
    public func page(_ cursor: String?) -> String { "rowstream:page:v1:\(table):" + digest(cursor) }

    /// The key of the fetch lease of the page after `cursor`.
    public func lease(_ cursor: String?) -> String { "rowstream:lease:v1:\(table):" + digest(cursor) }

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
