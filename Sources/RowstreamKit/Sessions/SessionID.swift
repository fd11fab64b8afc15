#if canImport(Glibc)
import Glibc
#endif

/// A session's id: 128 random bits, unguessable so one viewer cannot drive another's stream. Held as two
/// integers (no string per session); written as 32 lowercase hex digits in the `session` event and the URLs.
/// With a ``DemandRelay`` (a cluster: docs/SCALING.md, "Any instance answers any request") its first 32 bits name the
/// instance that holds it (``instance``; its first byte the tag, when given) and 96 bits are random.
/// A plain value: thread-safe.
package struct SessionID: Hashable, Sendable {
    private let high: UInt64
    private let low: UInt64

    /// A new random id; with `tag`, its first byte (the first two hex digits) is `tag` and 120 bits are random.
    /// Its 16 bytes come from one call of `fill` (``pooledRandom(_:)``: the kernel's bytes, one `getrandom` per 16 ids;
    /// a seam for tests).
    static func make(tag: UInt8? = nil, fill: (UnsafeMutableRawBufferPointer) -> Void = pooledRandom) -> SessionID {
        var words: (high: UInt64, low: UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { fill($0) }
        guard let tag else { return SessionID(high: words.high, low: words.low) }
        return SessionID(high: UInt64(tag) << 56 | words.high & 0x00ff_ffff_ffff_ffff, low: words.low)
    }

    /// A new id of the instance `instance` (its first 32 bits; 96 bits random, from `fill` as in ``make(tag:fill:)``).
    static func make(instance: UInt32, fill: (UnsafeMutableRawBufferPointer) -> Void = pooledRandom) -> SessionID {
        var words: (high: UInt64, low: UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { fill($0) }
        return SessionID(high: UInt64(instance) << 32 | words.high & 0xffff_ffff, low: words.low)
    }

    /// The first 32 bits: the instance that made it when it was made with a relay (``make(instance:fill:)``).
    package var instance: UInt32 { UInt32(truncatingIfNeeded: high >> 32) }

    /// Fills `buffer` from ``RandomPool/shared``: the kernel's bytes, fetched 256 at a time (the default of `make`).
    static func pooledRandom(_ buffer: UnsafeMutableRawBufferPointer) {
        RandomPool.shared.fill(buffer)
    }

    /// Fills `buffer` (at most 256 bytes) from the kernel's generator: one `getentropy(3)`, which is one
    /// `getrandom(2)` call (`SystemRandomNumberGenerator` makes one per 8 bytes). Should it fail, the standard
    /// library's generator fills it (it stops the process if it cannot).
    static func systemRandom(_ buffer: UnsafeMutableRawBufferPointer) {
        #if canImport(Glibc)
        if buffer.count <= 256, getentropy(buffer.baseAddress, buffer.count) == 0 { return }
        #endif
        var generator = SystemRandomNumberGenerator()
        for index in buffer.indices { buffer[index] = generator.next() }
    }

    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The id written as `text` (32 lowercase hex digits); nil for anything else.
    package init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 32 else { return nil }
        guard let high = Self.parse(bytes[0..<16]), let low = Self.parse(bytes[16..<32]) else { return nil }
        self.init(high: high, low: low)
    }

    /// 32 lowercase hex digits, written into the string's one buffer (one allocation per session, not five).
    package var text: String {
        String(unsafeUninitializedCapacity: 32) { buffer in
            Self.writeHex(high, into: buffer, at: 0)
            Self.writeHex(low, into: buffer, at: 16)
            return 32
        }
    }

    private static func writeHex(_ value: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        for index in 0..<16 {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0xf
            buffer[start + index] = nibble < 10 ? 48 + nibble : 87 + nibble
        }
    }

    private static func parse(_ digits: ArraySlice<UInt8>) -> UInt64? {
        var value: UInt64 = 0
        for byte in digits {
            let digit: UInt8
            switch byte {
            case 48...57: digit = byte - 48
            case 97...102: digit = byte - 87
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }
}
