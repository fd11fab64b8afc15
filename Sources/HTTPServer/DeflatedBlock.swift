import CZlib

/// Bytes compressed once for every gzip stream that carries them: raw deflate that stands alone (no reference to
/// bytes before it) and ends byte-aligned with a sync flush, plus what a stream needs for its trailer, the CRC-32
/// and length of the bytes, and zlib's operator to combine that CRC into a running one. A broadcast event is
/// compressed into one block shared by all its viewers; each viewer's stream keeps only a ``GzipStream``.
///
/// Thread-safe: a value type.
struct DeflatedBlock: Sendable {
    /// The compressed bytes, written as they are into any gzip stream.
    let bytes: [UInt8]
    /// CRC-32 of the uncompressed bytes.
    let crc: UInt32
    /// Uncompressed length.
    let count: Int
    /// `crc32_combine_gen(count)`: appending this block to a stream is then one `crc32_combine_op`.
    let combineOperator: UInt

    /// Inputs up to this size go out as a stored block (5 bytes of framing, no compressor): a `retry:` line, a
    /// resume id, a heartbeat gain nothing from deflate, and resetting a compressor clears its 64 KB hash table.
    static let storedBlockLimit = 64

    /// `input` compressed (with a compressor from `pool`), or stored when it is short.
    init(compressing input: [UInt8], pool: DeflaterPool = .shared) {
        bytes = input.count <= Self.storedBlockLimit
            ? Self.storedBlock(input)
            : input.withUnsafeBytes { raw in pool.withDeflater { $0.compress(raw, ending: .sync) } }
        crc = input.withUnsafeBytes { GzipStream.crc32(of: $0) }
        count = input.count
        combineOperator = UInt(crc32_combine_gen(off_t(input.count)))
    }

    /// A non-final stored block (RFC 1951 §3.2.4): header byte 0 (BFINAL 0, BTYPE 00, padded to the byte), LEN and
    /// its complement NLEN little-endian, the bytes. Byte-aligned at both ends, like a sync-flushed block.
    private static func storedBlock(_ input: [UInt8]) -> [UInt8] {
        let length = UInt16(input.count)
        return [0, UInt8(length & 0xff), UInt8(length >> 8), UInt8(~length & 0xff), UInt8(~length >> 8)] + input
    }
}
