/// A JSON value: the seven shapes of RFC 8259, with integers kept apart from doubles.
///
/// Integers without fraction or exponent that fit `Int64` are `.int`; integers beyond `Int64` are
/// `.bigInteger`, carrying the literal exactly as written (ids such as `12345678901234567890` are never
/// rounded through `Double`); every other number is `.double`.
/// Note that `.int(1)` and `.double(1)` are different values (`==` compares cases).
///
/// Thread-safe: an immutable value type, `Sendable`, safe to share between threads.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    /// An integer literal too large for `Int64`, as the document wrote it (`-?[1-9][0-9]*`).
    case bigInteger(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

extension JSONValue {
    /// The member named `key`; nil unless this is an object with that key.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The element at `index`; nil unless this is an array and `index` is in range.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The integer, if this is an int or a double with an integral value that fits `Int64`.
    public var intValue: Int64? {
        switch self {
        case .int(let i):
            return i
        case .double(let d):
            return exactInt64(d)
        default:
            return nil
        }
    }

    /// The number as a double, if this is an int or a double.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .bigInteger(let text): return Double(text)
        default: return nil
        }
    }

    /// The boolean, if this is a bool.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The members, if this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// True for `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// `d` as an `Int64` if it is integral and in range. Written with plain conversions (not
/// `Int64(exactly:)`) so this module needs no libm.
func exactInt64(_ d: Double) -> Int64? {
    // The range test also refuses NaN (every comparison with NaN is false).
    guard d >= -9_223_372_036_854_775_808.0 && d < 9_223_372_036_854_775_808.0 else { return nil }
    let i = Int64(d)
    return Double(i) == d ? i : nil
}
