/// One RESP2 or RESP3 reply. Bulk strings are bytes (binary-safe); simple strings and errors are text lines.
/// A plain value: thread-safe.
public enum RESPValue: Sendable, Equatable, Hashable {
    /// `+OK`
    case simpleString(String)
    /// `-ERR ...` (also RESP3 blob errors `!`). `send` throws these as ``RedisError/server(_:)``.
    case error(String)
    /// `:42`
    case integer(Int64)
    /// `$3\r\nabc` (also RESP3 verbatim strings `=`, with their `txt:` prefix kept).
    case bulkString([UInt8])
    /// `*2 ...` (RESP3 sets `~` are arrays too).
    case array([RESPValue])
    /// `$-1`, `*-1`, RESP3 `_`.
    case null
    /// RESP3 `#t` / `#f`.
    case boolean(Bool)
    /// RESP3 `,1.5` (`inf`, `-inf`, `nan` accepted).
    case double(Double)
    /// RESP3 `(1234...`, as its decimal digits.
    case bigNumber(String)
    /// RESP3 `%`: key/value pairs in the server's order.
    case map([RESPPair])
    /// RESP3 `>`: an out-of-band push (pub/sub messages in RESP3).
    case push([RESPValue])

    /// The bytes of a bulk or simple string, else nil.
    public var bytes: [UInt8]? {
        switch self {
        case .bulkString(let bytes): return bytes
        case .simpleString(let text): return Array(text.utf8)
        default: return nil
        }
    }

    /// The bulk or simple string as UTF-8 text (invalid sequences repaired), else nil.
    public var string: String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    /// The integer, else nil.
    public var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The elements of an array, set or push, else nil.
    public var elements: [RESPValue]? {
        switch self {
        case .array(let values), .push(let values): return values
        default: return nil
        }
    }

    /// Whether this is a null (`$-1`, `*-1`, `_`).
    public var isNull: Bool { self == .null }
}

/// One key/value pair of a RESP3 map. A plain value.
public struct RESPPair: Sendable, Equatable, Hashable {
    public var key: RESPValue
    public var value: RESPValue
    public init(key: RESPValue, value: RESPValue) {
        self.key = key
        self.value = value
    }
}
