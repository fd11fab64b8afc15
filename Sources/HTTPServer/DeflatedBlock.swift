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

    /// `input` compressed (with a compressor from `pool`).
    init(compressing input: [UInt8], pool: DeflaterPool = .shared) {
        bytes = input.withUnsafeBytes { raw in pool.withDeflater { $0.compress(raw, ending: .sync) } }
        crc = input.withUnsafeBytes { GzipStream.crc32(of: $0) }
        count = input.count
        combineOperator = UInt(crc32_combine_gen(off_t(input.count)))
    }
}
