import CZlib

/// The body of one gzip-coded Rowstream stream, decoded write by write for the fan-out bench
/// (`--accept-encoding gzip`). It reads the server's format, not any gzip stream: after the response head, the
/// 10-byte gzip header, then one block per write, each standing alone: deflate ended by a sync flush
/// (`00 00 ff ff`), or a stored block for a short write (inflated with the next one). So a connection keeps no
/// inflate state between reads, only the bytes of a write not yet complete; every run of blocks up to a sync
/// flush is inflated by the one shared ``BlockInflater``, as a browser's decoder would, at a
/// fraction of the memory (10,000 streams with an inflater each would be 400 MB).
/// Thread rules: a value owned by one connection on the load client's single thread.
struct GzipBody {
    /// The response head seen so far (until its blank line), then nil.
    private var head: [UInt8]? = []
    private var headerLeft = 10
    private var pending: [UInt8] = []

    /// Appends the identity bytes of `bytes` (the head as it is, then each complete write inflated) to `out`.
    mutating func decode(_ bytes: UnsafeRawBufferPointer, with inflater: BlockInflater, into out: inout [UInt8]) {
        var body = bytes[...]
        if var seen = head {
            seen.append(contentsOf: bytes)
            guard let end = Self.endOfHead(seen) else {
                head = seen
                return
            }
            out.append(contentsOf: seen[..<end])
            head = nil
            body = bytes[(bytes.count - (seen.count - end))...]
        }
        let skip = min(headerLeft, body.count)
        headerLeft -= skip
        pending.append(contentsOf: body.dropFirst(skip))
        var start = 0
        var index = 3
        while index < pending.count {
            if pending[index] == 0xff, pending[index - 1] == 0xff, pending[index - 2] == 0, pending[index - 3] == 0 {
                inflater.inflate(pending[start...index], into: &out)
                start = index + 1
                index += 4
            } else {
                index += 1
            }
        }
        pending.removeFirst(start)
    }

    private static func endOfHead(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10
            && bytes[index - 3] == 13 {
            return index + 1
        }
        return nil
    }
}

/// One raw inflater, reset for each block (Rowstream's blocks refer to nothing before them).
/// Thread rules: the load client's single thread.
final class BlockInflater {
    private var stream = z_stream()
    private var output = [UInt8](repeating: 0, count: 256 * 1024)
    private(set) var failures = 0

    init() { precondition(czlib_inflate_init(&stream, -15) == czlib_Z_OK, "inflateInit2") }
    deinit { inflateEnd(&stream) }

    func inflate(_ block: ArraySlice<UInt8>, into out: inout [UInt8]) {
        inflateReset(&stream)
        block.withUnsafeBytes { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.assumingMemoryBound(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(input.count)
            repeat {
                let status = output.withUnsafeMutableBytes { raw -> Int32 in
                    stream.next_out = raw.assumingMemoryBound(to: Bytef.self).baseAddress
                    stream.avail_out = uInt(raw.count)
                    return CZlib.inflate(&stream, czlib_Z_SYNC_FLUSH)
                }
                out.append(contentsOf: output[..<(output.count - Int(stream.avail_out))])
                if status != czlib_Z_OK {
                    if status != czlib_Z_BUF_ERROR { failures += 1 }
                    break
                }
            } while stream.avail_in > 0 || stream.avail_out == 0
        }
        stream.next_in = nil
        stream.next_out = nil
    }
}
