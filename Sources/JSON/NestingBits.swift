/// One bit per nesting level, for `JSONParser.skipValue`: whether the container open at each level is an object.
/// Holds `JSONValue.depthCap` levels inline (no allocation), which is as deep as any parse goes.
///
/// Thread-safe: a value type.
struct NestingBits {
    private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

    /// The bit of `level` (0 ..< 512).
    subscript(level: Int) -> Bool {
        get {
            withUnsafeBytes(of: words) { raw in
                (raw.load(fromByteOffset: (level >> 6) * 8, as: UInt64.self) >> UInt64(level & 63)) & 1 == 1
            }
        }
        set {
            precondition(level >= 0 && level < 512, "nesting beyond JSONValue.depthCap")
            withUnsafeMutableBytes(of: &words) { raw in
                let offset = (level >> 6) * 8
                let bit: UInt64 = 1 << UInt64(level & 63)
                let word = raw.load(fromByteOffset: offset, as: UInt64.self)
                raw.storeBytes(of: newValue ? word | bit : word & ~bit, toByteOffset: offset, as: UInt64.self)
            }
        }
    }
}
