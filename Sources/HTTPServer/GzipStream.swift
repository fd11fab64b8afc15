import CZlib

/// One gzip-coded response body (RFC 1952) as it is written: a header, then ``DeflatedBlock``s (each shared or
/// made for this stream), then the trailer. All it keeps between writes is the running CRC-32 and length of the
/// uncompressed bytes (8 bytes), so an idle compressed stream costs no more memory than a plain one.
///
/// Thread rules: a value confined to its connection's loop.
struct GzipStream {
    /// The 10-byte member header: magic, deflate, no flags, no time, no extra flags, OS "Unix".
    static let header: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]

    /// An empty final block of fixed Huffman codes (BFINAL 1, BTYPE 01, end-of-block): ends the deflate data.
    static let finalBlock: [UInt8] = [0x03, 0x00]

    private var crc: UInt32 = 0
    /// The uncompressed length modulo 2^32, as the trailer's ISIZE.
    private var length: UInt32 = 0

    /// Accounts for `block` being written to this stream.
    mutating func append(_ block: DeflatedBlock) {
        // A short block has no operator kept (``DeflatedBlock/combineOperator``): made here.
        let combine = block.combineOperator != 0
            ? block.combineOperator : DeflatedBlock.combineOperator(length: block.count)
        crc = UInt32(truncatingIfNeeded: crc32_combine_op(uLong(crc), uLong(block.crc), uLong(combine)))
        length &+= UInt32(truncatingIfNeeded: block.count)
    }

    /// Accounts for `block`, whose uncompressed bytes are `identity`, being written to this stream: a short
    /// `identity` (an event's head, a `retry:` line) is run through the CRC itself, cheaper than combining (about
    /// 440 instructions, four a byte for the CRC) and than making the block's combine operator (about 1,000).
    mutating func append(_ block: DeflatedBlock, of identity: [UInt8]) {
        assert(block.count == identity.count, "the block of these bytes")
        guard identity.count <= Self.directCRCLimit else { return append(block) }
        crc = identity.withUnsafeBytes { bytes in
            let start = bytes.assumingMemoryBound(to: Bytef.self).baseAddress
            return UInt32(truncatingIfNeeded: CZlib.crc32(uLong(crc), start, uInt(bytes.count)))
        }
        length &+= UInt32(truncatingIfNeeded: identity.count)
    }

    /// Up to this many uncompressed bytes, ``append(_:of:)`` takes their CRC rather than combining the block's.
    static let directCRCLimit = 96

    /// What ends the stream: the final block, then CRC-32 and length.
    var trailer: [UInt8] { Self.finalBlock + Self.trailerFields(crc: crc, length: length) }

    /// A whole body gzip-coded at once (a `.bytes` response).
    static func encode(_ body: [UInt8], pool: DeflaterPool = .shared) -> [UInt8] {
        body.withUnsafeBytes { raw in
            header + pool.withDeflater { $0.compress(raw, ending: .finish) }
                + trailerFields(crc: crc32(of: raw), length: UInt32(truncatingIfNeeded: raw.count))
        }
    }

    /// CRC-32 (gzip's) of `bytes`.
    static func crc32(of bytes: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(truncatingIfNeeded: CZlib.crc32(0, bytes.assumingMemoryBound(to: Bytef.self).baseAddress, uInt(bytes.count)))
    }

    /// The member's last 8 bytes: CRC-32 and ISIZE, little-endian.
    private static func trailerFields(crc: UInt32, length: UInt32) -> [UInt8] {
        [crc, length].flatMap { value in stride(from: 0, to: 32, by: 8).map { UInt8(truncatingIfNeeded: value >> $0) } }
    }
}
