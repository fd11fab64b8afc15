import CZlib
import Locking

/// One zlib raw-deflate compressor, reset before each use, so each output stands alone: it refers to no byte
/// before it, and (ended with a sync flush) it ends byte-aligned on a non-final block. Any gzip stream can carry
/// it, which is how one compressed event serves every viewer (``DeflatedBlock``).
///
/// Memory: about 268 KB of zlib state (a 32 KB window, memLevel 8) and up to 64 KB of scratch output, so
/// compressors are pooled per server process (``DeflaterPool``), never held by a connection.
/// Thread rules: used by one thread at a time (the pool hands it out under its lock).
final class Deflater {
    /// How the output ends.
    enum Ending {
        /// A sync flush: byte-aligned, no final block (an event in a longer stream).
        case sync
        /// The final block (a whole body).
        case finish
    }

    /// zlib's level 3: on a 50-row demo batch (30 KB) it keeps 15.9% of the bytes against level 6's 14.7%, at
    /// several times less CPU (measured with Python's zlib, same machine): a viewer's own batch is compressed per
    /// viewer, so its cost counts more than the last 1.2%.
    static let level: Int32 = 3

    private var stream = z_stream()

    init() {
        let status = czlib_deflate_init_raw(&stream, Self.level, 15, 8)
        precondition(status == czlib_Z_OK, "deflateInit2 failed (\(status)): out of memory")
    }

    deinit { deflateEnd(&stream) }

    /// Where output is written before it is copied out at its exact size: the array a stream queues then holds
    /// the compressed bytes only, not room for the uncompressed ones (per-viewer batches of 30 KB each left
    /// their 30 KB allocations behind in the heap). Kept up to `maxScratchBytes`; a larger event gets an
    /// allocation of its own.
    private var scratch: [UInt8] = []
    static let maxScratchBytes = 64 * 1024

    /// `input` compressed as raw deflate, on its own.
    func compress(_ input: UnsafeRawBufferPointer, ending: Ending) -> [UInt8] {
        deflateReset(&stream)
        // deflateBound covers a finished stream; a sync flush adds its 5-byte empty stored block.
        let bound = Int(deflateBound(&stream, uLong(input.count))) + 16
        guard bound <= Self.maxScratchBytes else {
            return [UInt8](unsafeUninitializedCapacity: bound) { output, written in
                written = run(input, into: output, ending: ending)
            }
        }
        if scratch.count < bound { scratch = [UInt8](repeating: 0, count: min(Self.maxScratchBytes, max(bound, 16 * 1024))) }
        let written = scratch.withUnsafeMutableBufferPointer { run(input, into: $0, ending: ending) }
        return Array(scratch[..<written])
    }

    /// One deflate call over all of `input` into `output` (room for `deflateBound`); the count written.
    private func run(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>,
                     ending: Ending) -> Int {
        stream.next_in = UnsafeMutablePointer(mutating: input.assumingMemoryBound(to: Bytef.self).baseAddress)
        stream.avail_in = uInt(input.count)
        stream.next_out = output.baseAddress
        stream.avail_out = uInt(output.count)
        let status = deflate(&stream, ending == .sync ? czlib_Z_SYNC_FLUSH : czlib_Z_FINISH)
        precondition(stream.avail_in == 0 && stream.avail_out > 0
                     && (status == (ending == .sync ? czlib_Z_OK : czlib_Z_STREAM_END)),
                     "deflate did not finish within deflateBound (\(status))")
        stream.next_in = nil
        stream.next_out = nil
        return output.count - Int(stream.avail_out)
    }
}

/// Idle compressors for reuse, so compressing an event allocates no zlib state (a fresh one costs a 268 KB
/// allocation and its first-use page faults). At most `capacity` are kept (one per core and two more: the
/// threads writing batches and broadcasting); more are made when more threads compress at once, and freed after.
/// Kept compressors are a fixed cost (about 330 KB each), not a cost per stream.
/// Thread-safe: the list is behind a lock; a compressor is used outside it by the one thread holding it.
final class DeflaterPool: Sendable {
    private let idle = Lock<[UnsafeSendable]>([])
    private let capacity: Int

    /// A `Deflater` moving through the lock: only one thread holds it at a time.
    private struct UnsafeSendable: @unchecked Sendable { let deflater: Deflater }

    init(capacity: Int) { self.capacity = capacity }

    /// The process's pool.
    static let shared = DeflaterPool(capacity: UsableCPUs.count() + 2)

    /// `body` with a compressor nobody else holds.
    func withDeflater<R>(_ body: (Deflater) -> R) -> R {
        let deflater = idle.withLock { $0.popLast()?.deflater } ?? Deflater()
        defer {
            let held = UnsafeSendable(deflater: deflater)
            idle.withLock { if $0.count < capacity { $0.append(held) } }
        }
        return body(deflater)
    }
}
