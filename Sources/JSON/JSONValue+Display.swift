extension JSONValue {
    /// Text for display: a string as is; numbers in their shortest round-trip form (integers, and
    /// doubles with an integral value below 2^53, without ".0"; big integers exactly as written); bools "true"/"false"; null -> nil;
    /// arrays and objects -> their compact JSON.
    ///
    /// Thread-safe: pure function.
    public var displayText: String? {
        switch self {
        case .null:
            return nil
        case .bool(let b):
            return b ? "true" : "false"
        case .int(let i):
            return String(i)
        case .double(let d):
            if d.magnitude < 9_007_199_254_740_992, let i = exactInt64(d) {
                return String(i)
            }
            return d.description
        case .bigInteger(let text):
            return text
        case .string(let s):
            return s
        case .array, .object:
            return String(decoding: serialized(), as: UTF8.self)
        }
    }
}
