/// Gzip streams made by hand for upstream fault tests (no zlib in Swift here): one fixed-Huffman deflate block
/// (RFC 1951 §3.2.6), with a correct CRC-32 and size trailer, so a client can inflate them in full.
public enum Gzip {
    /// `count` zero bytes as a literal 0 then length-258 distance-1 matches of 13 bits each: about 159:1 (a "gzip
    /// bomb"; dynamic Huffman codes reach ~1,000:1).
    public static func zeros(count: Int) -> [UInt8] {
        stream(count: count) { bits, remaining in
            while remaining >= 258 {
                bits.writeCode(0xC5, length: 8)     // length code 285 = 258
                bits.writeCode(0, length: 5)        // distance code 0 = 1
                remaining -= 258
            }
        }
    }

    /// `count` zero bytes, each a literal: about 1:1, the way an incompressible body compresses.
    public static func literalZeros(count: Int) -> [UInt8] {
        stream(count: count) { _, _ in }
    }

    /// Header, a literal 0, what `matches` writes (it lowers `remaining`), literals for the rest, end of block,
    /// trailer. The bytes encoded are all zeros.
    private static func stream(count: Int, matches: (inout BitWriter, inout Int) -> Void) -> [UInt8] {
        precondition(count >= 1)
        var out: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF]
        var bits = BitWriter()
        bits.write(1, count: 1)                 // BFINAL
        bits.write(1, count: 2)                 // BTYPE 01: fixed Huffman (LSB first)
        bits.writeCode(0x30, length: 8)         // literal 0
        var remaining = count - 1
        matches(&bits, &remaining)
        for _ in 0..<remaining { bits.writeCode(0x30, length: 8) }
        bits.writeCode(0, length: 7)            // end of block (256)
        out += bits.bytes()
        out += littleEndian(crc32OfZeros(count: count))
        out += littleEndian(UInt32(truncatingIfNeeded: count))
        return out
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }

    /// CRC-32 (IEEE, reflected) of `count` zero bytes, bit by bit (tests only: fast enough for a few MiB).
    private static func crc32OfZeros(count: Int) -> UInt32 {
        var table = [UInt32](repeating: 0, count: 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            table[index] = value
        }
        var crc: UInt32 = 0xFFFF_FFFF
        for _ in 0..<count { crc = table[Int(crc & 0xFF)] ^ (crc >> 8) }
        return ~crc
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
