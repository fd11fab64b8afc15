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
    /// `crc32_combine_gen(count)`: appending this block to a stream is then one `crc32_combine_op`. 0 (never an
    /// operator) when not made: a block compressed or stored of at most ``GzipStream/directCRCLimit`` bytes, whose
    /// CRC a stream takes over the bytes themselves (``GzipStream/append(_:of:)``), cheaper than making it.
    let combineOperator: UInt

    /// Inputs up to this size go out as a stored block (5 bytes of framing, no compressor): a `retry:` line, a
    /// resume id, a heartbeat gain nothing from deflate, and resetting a compressor clears its 64 KB hash table.
    static let storedBlockLimit = 64

    /// `input` compressed (with a compressor from `pool`), or stored when it is short.
    init(compressing input: [UInt8], pool: DeflaterPool = .shared) {
        guard input.count > Self.storedBlockLimit else {
            self = input.withUnsafeBytes { DeflatedBlock(storing: $0) }
            return
        }
        self.init(bytes: input.withUnsafeBytes { raw in pool.withDeflater { $0.compress(raw, ending: .sync) } },
                  crc: input.withUnsafeBytes { GzipStream.crc32(of: $0) }, count: input.count)
    }

    /// `input` as it is, in a non-final stored block (RFC 1951 §3.2.4): header byte 0 (BFINAL 0, BTYPE 00, padded to
    /// the byte), LEN and its complement NLEN little-endian, the bytes. Byte-aligned at both ends, like a sync-flushed
    /// block; no compressor. At most 65,535 bytes (a stored block's LEN).
    init(storing input: UnsafeRawBufferPointer) {
        var stored: [UInt8] = []
        stored.reserveCapacity(5 + input.count)
        Self.appendStoredHeader(length: input.count, to: &stored)
        stored += input
        self.init(bytes: stored, crc: GzipStream.crc32(of: input), count: input.count)
    }

    /// A stored block's 5-byte header for `length` bytes (at most 65,535), appended to `bytes`.
    static func appendStoredHeader(length: Int, to bytes: inout [UInt8]) {
        precondition((0...Int(UInt16.max)).contains(length), "a stored block holds 0 to 65,535 bytes")
        let length = UInt16(length)
        bytes.append(0)
        for half in [length, ~length] {  // LEN, then NLEN, little-endian
            bytes.append(UInt8(truncatingIfNeeded: half))
            bytes.append(UInt8(truncatingIfNeeded: half >> 8))
        }
    }

    /// `bytes`, deflate made by the caller from `uncompressed` (standing alone, ending byte-aligned), with the
    /// CRC-32 and length of `uncompressed`; `combineOperator` is ``combineOperator(length:)`` of its length.
    init(deflate bytes: [UInt8], of uncompressed: [UInt8], combineOperator: UInt) {
        self.bytes = bytes
        crc = uncompressed.withUnsafeBytes { GzipStream.crc32(of: $0) }
        count = uncompressed.count
        self.combineOperator = combineOperator
    }

    private init(bytes: [UInt8], crc: UInt32, count: Int) {
        self.bytes = bytes
        self.crc = crc
        self.count = count
        combineOperator = count <= GzipStream.directCRCLimit ? 0 : Self.combineOperator(length: count)
    }

    /// zlib's operator that appends a block of `length` uncompressed bytes to a running CRC-32.
    static func combineOperator(length: Int) -> UInt {
        UInt(crc32_combine_gen(off_t(length)))
    }
}
