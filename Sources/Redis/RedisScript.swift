/// A Lua script and its SHA-1, for `EVALSHA` (``RedisCommandSending/run(_:keys:arguments:)`` falls back to
/// `EVAL` when Redis does not have it yet). A plain value.
public struct RedisScript: Sendable, Equatable {
    public let source: String
    /// Lowercase hex SHA-1 of the source, as Redis names scripts.
    public let sha1: String

    public init(_ source: String) {
        self.source = source
        sha1 = SHA1.hex(Array(source.utf8))
    }

    /// Deletes KEYS[1] only if its value equals ARGV[1]; returns 1 if deleted, else 0. Releases a lease
    /// (`SET key token NX PX ...`) only by its holder.
    public static let compareAndDelete = RedisScript("""
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end
        """)

    /// Sets KEYS[1]'s expiry to ARGV[2] ms only if its value equals ARGV[1]; returns 1 if extended, else 0.
    /// Renews a lease only by its holder.
    public static let compareAndExpire = RedisScript("""
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end
        """)
}

/// SHA-1 (FIPS 180-4), only to name scripts as Redis does (not for security).
enum SHA1 {
    static func hex(_ message: [UInt8]) -> String {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var data = message
        data.append(0x80)
        while data.count % 64 != 56 { data.append(0) }
        let bits = UInt64(message.count) * 8
        for shift in stride(from: 56, through: 0, by: -8) {
            data.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
        var w = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: data.count, by: 64) {
            for i in 0..<16 {
                let b = chunk + i * 4
                w[i] = UInt32(data[b]) << 24 | UInt32(data[b + 1]) << 16 | UInt32(data[b + 2]) << 8
                    | UInt32(data[b + 3])
            }
            for i in 16..<80 {
                let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                w[i] = x << 1 | x >> 31
            }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for i in 0..<80 {
                let (f, k): (UInt32, UInt32)
                switch i {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, temp)
            }
            h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d; h[4] &+= e
        }
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for word in h {
            for shift in stride(from: 28, through: 0, by: -4) { out.append(digits[Int(word >> UInt32(shift) & 0xF)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
