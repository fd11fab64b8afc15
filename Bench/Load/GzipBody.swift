import CZlib
import Glibc

/// The body of one gzip-coded Rowstream stream, decoded write by write for the benches' `--accept-encoding gzip`
/// (fan-out, idle, storm). It reads the server's format, not any gzip stream: after the response head, the
/// 10-byte gzip header, then one block per write, each standing alone: deflate ended by a sync flush
/// (`00 00 ff ff`), or a stored block for a short write (inflated as soon as it is whole). So a connection keeps no
/// inflate state between reads, only the bytes of a write not yet complete; every run of blocks up to a sync
/// flush is inflated by the one shared ``BlockInflater``, as a browser's decoder would, at a
/// fraction of the memory (10,000 streams with an inflater each would be 400 MB). The head and each inflated piece
/// go to the caller where they lie (the read, the inflater's output): a read's whole runs are inflated from the
/// read itself, and only a write cut by the read's end is copied, to wait for the rest.
/// Thread rules: a value owned by one connection on the load client's single thread.
struct GzipBody {
    /// While the head lasts: how many bytes of its ending CRLF CRLF the last read ended in; nil after it.
    private var headMatched: Int? = 0
    private var headerLeft = 10
    /// The coded bytes after the last sync flush (a write not yet complete).
    private var pending: [UInt8] = []

    /// Hands the identity bytes of `bytes` to `sink`, in order: the head as it is, then each complete write inflated.
    mutating func decode(_ bytes: UnsafeRawBufferPointer, with inflater: BlockInflater,
                         to sink: (UnsafeRawBufferPointer) -> Void) {
        var body = bytes
        if let matched = headMatched {
            let (end, state) = Self.endOfHead(bytes, matched: matched)
            guard let end else {
                headMatched = state
                return sink(bytes)
            }
            headMatched = nil
            sink(UnsafeRawBufferPointer(rebasing: bytes[..<end]))
            body = UnsafeRawBufferPointer(rebasing: bytes[end...])
        }
        let skip = min(headerLeft, body.count)
        headerLeft -= skip
        body = UnsafeRawBufferPointer(rebasing: body[skip...])
        guard !body.isEmpty else { return }
        if pending.isEmpty {
            let used = Self.runs(in: body) { inflater.inflate($0, to: sink) }
            pending.append(contentsOf: body[used...])
        } else {
            pending.append(contentsOf: body)
            let used = pending.withUnsafeBytes { coded in Self.runs(in: coded) { inflater.inflate($0, to: sink) } }
            pending.removeFirst(used)
        }
    }

    /// Calls `run` with each run of `bytes` that stands alone, from its start on: a stored block (a short write,
    /// which the server sends as one, RFC 1951 §3.2.4: its first byte's BTYPE bits are 00, then LEN and its
    /// complement), or compressed blocks up to and with a sync flush (`00 00 ff ff`). Returns where the last one ended
    /// (the start of the bytes not yet a whole run). A run starts on a block's first byte, so its BTYPE tells which
    /// (a compressed block's is 01 or 10). A stored block that ends a write with nothing after it (the last piece of
    /// a resumed stream's `session` event) is a run of its own: a browser's inflater shows it at once, so must this.
    static func runs(in bytes: UnsafeRawBufferPointer, _ run: (UnsafeRawBufferPointer) -> Void) -> Int {
        guard let raw = bytes.baseAddress else { return 0 }
        let base = raw.assumingMemoryBound(to: UInt8.self)
        var start = 0
        while start < bytes.count {
            if base[start] & 0b110 == 0 {
                guard start + 5 <= bytes.count else { return start }
                let length = Int(base[start + 1]) | Int(base[start + 2]) << 8
                let end = start + 5 + length
                guard end <= bytes.count else { return start }
                run(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                start = end
                continue
            }
            guard let end = syncFlushEnd(base, from: start, count: bytes.count) else { return start }
            run(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            start = end
        }
        return start
    }

    /// Just past the first sync flush (`00 00 ff ff`) of the compressed blocks at `start`, nil if none has arrived.
    private static func syncFlushEnd(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int? {
        var index = start + 3  // the last byte of a flush: at least 3 past the run's start
        while index < count, let hit = memchr(base + index, 0xff, count - index) {
            let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if base[at - 1] == 0xff, base[at - 2] == 0, base[at - 3] == 0 { return at + 1 }
            index = at + 1
        }
        return nil
    }

    /// Where the head ends in `bytes` (just past its CRLF CRLF), given that the bytes before them ended in
    /// `matched` bytes of it; nil and how many bytes of it `bytes` end in when it does not end there.
    private static func endOfHead(_ bytes: UnsafeRawBufferPointer, matched: Int) -> (Int?, Int) {
        var matched = matched
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == (matched & 1 == 0 ? 13 : 10) {
                matched += 1
                if matched == 4 { return (index + 1, 4) }
            } else {
                matched = byte == 13 ? 1 : 0
            }
        }
        return (nil, matched)
    }
}

/// One raw inflater, reset for each block (Rowstream's blocks refer to nothing before them).
/// Thread rules: the load client's single thread.
final class BlockInflater {
    private var stream = z_stream()
    private let output = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
    private(set) var failures = 0

    init() { precondition(czlib_inflate_init(&stream, -15) == czlib_Z_OK, "inflateInit2") }
    deinit {
        inflateEnd(&stream)
        output.deallocate()
    }

    /// Inflates `block`, handing `sink` each piece of output where it lies (valid only during the call).
    func inflate(_ block: UnsafeRawBufferPointer, to sink: (UnsafeRawBufferPointer) -> Void) {
        inflateReset(&stream)
        stream.next_in = UnsafeMutablePointer(mutating: block.assumingMemoryBound(to: Bytef.self).baseAddress)
        stream.avail_in = uInt(block.count)
        repeat {
            stream.next_out = output.assumingMemoryBound(to: Bytef.self).baseAddress
            stream.avail_out = uInt(output.count)
            let status = CZlib.inflate(&stream, czlib_Z_SYNC_FLUSH)
            let produced = output.count - Int(stream.avail_out)
            if produced > 0 { sink(UnsafeRawBufferPointer(rebasing: output[..<produced])) }
            if status != czlib_Z_OK {
                if status != czlib_Z_BUF_ERROR { failures += 1 }
                break
            }
        } while stream.avail_in > 0 || stream.avail_out == 0
        stream.next_in = nil
        stream.next_out = nil
    }
}
