/// Builds a gzip stream of `count` zero bytes with one fixed-Huffman deflate block (RFC 1951 §3.2.6): a literal
/// 0, then length-258 distance-1 matches; about 1,000:1. The CRC field is left zero: a client that enforces its
/// body limit stops long before reaching it; one that does not fails at the end instead of at the limit.
enum GzipBomb {
    static func zeros(count: Int) -> [UInt8] {
        var out: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF]
        var bits = BitWriter()
        bits.write(1, count: 1)                 // BFINAL
        bits.write(1, count: 2)                 // BTYPE 01: fixed Huffman (LSB first)
        bits.writeCode(0x30, length: 8)         // literal 0
        var remaining = count - 1
        while remaining >= 258 {
            bits.writeCode(0xC5, length: 8)     // length code 285 = 258
            bits.writeCode(0, length: 5)        // distance code 0 = 1
            remaining -= 258
        }
        for _ in 0..<remaining { bits.writeCode(0x30, length: 8) }
        bits.writeCode(0, length: 7)            // end of block (256)
        out += bits.bytes()
        out += [0, 0, 0, 0]                     // CRC-32 (not computed, see above)
        let size = UInt32(truncatingIfNeeded: count)
        out += [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)]
        return out
    }

    private struct BitWriter {
        private var buffer: [UInt8] = []
        private var current: UInt32 = 0
        private var filled = 0

        /// Writes `value`'s low `count` bits, least significant first (deflate's header fields).
        mutating func write(_ value: UInt32, count: Int) {
            for index in 0..<count { push(value >> UInt32(index) & 1) }
        }

        /// Writes a Huffman code most significant bit first (deflate's codes).
        mutating func writeCode(_ code: UInt32, length: Int) {
            for index in stride(from: length - 1, through: 0, by: -1) { push(code >> UInt32(index) & 1) }
        }

        private mutating func push(_ bit: UInt32) {
            current |= bit << UInt32(filled)
            filled += 1
            if filled == 8 {
                buffer.append(UInt8(current))
                current = 0
                filled = 0
            }
        }

        func bytes() -> [UInt8] { filled > 0 ? buffer + [UInt8(current)] : buffer }
    }
}
