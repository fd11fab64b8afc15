/// SipHash-2-4 (Aumasson and Bernstein): a keyed 64-bit hash. With a secret random key nobody who does not know the
/// key can choose inputs that collide, and the same key gives the same hashes in every process: a walk's dedup
/// window (``KeyWindow``) carries its key in the resume token, so any instance can go on with it.
///
/// Thread-safe: a value type.
struct SipHash: Sendable, Equatable {
    let k0: UInt64
    let k1: UInt64

    /// Key bytes, little-endian: 16 of them.
    static let keyByteCount = 16

    init(k0: UInt64, k1: UInt64) {
        self.k0 = k0
        self.k1 = k1
    }

    /// A fresh random key.
    static func random() -> SipHash {
        var generator = SystemRandomNumberGenerator()
        return SipHash(k0: generator.next(), k1: generator.next())
    }

    /// The hash of `bytes`.
    func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var v0: UInt64 = 0x736f6d6570736575 ^ k0
        var v1: UInt64 = 0x646f72616e646f6d ^ k1
        var v2: UInt64 = 0x6c7967656e657261 ^ k0
        var v3: UInt64 = 0x7465646279746573 ^ k1
        @inline(__always) func round() {
            v0 &+= v1; v1 = v1.rotatedLeft(13); v1 ^= v0; v0 = v0.rotatedLeft(32)
            v2 &+= v3; v3 = v3.rotatedLeft(16); v3 ^= v2
            v0 &+= v3; v3 = v3.rotatedLeft(21); v3 ^= v0
            v2 &+= v1; v1 = v1.rotatedLeft(17); v1 ^= v2; v2 = v2.rotatedLeft(32)
        }
        let count = bytes.count
        let whole = count & ~7
        var index = 0
        while index < whole {
            let m = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self).littleEndian
            v3 ^= m
            round(); round()
            v0 ^= m
            index &+= 8
        }
        var last = UInt64(truncatingIfNeeded: count) << 56
        for shift in 0..<(count &- whole) {
            last |= UInt64(bytes[whole &+ shift]) << UInt64(8 * shift)
        }
        v3 ^= last
        round(); round()
        v0 ^= last
        v2 ^= 0xff
        round(); round(); round(); round()
        return v0 ^ v1 ^ v2 ^ v3
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotatedLeft(_ n: UInt64) -> UInt64 { (self << n) | (self >> (64 &- n)) }
}
