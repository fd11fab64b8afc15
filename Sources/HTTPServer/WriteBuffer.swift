import Glibc

/// A connection's outgoing bytes: a queue of the arrays and file regions handed to it, sent from the front. Arrays
/// go out with one gathering `sendmsg` (an encoded event is queued as the array it is, shared, not copied); a file
/// region (a static file's body) with `sendfile`, so its bytes are never copied through memory at all.
///
/// Memory: the buffer holds only what is unsent. Once everything is sent it holds no storage at all, so an
/// idle connection (an SSE stream between events) costs nothing here however large its last write was.
///
/// Thread rules: a value confined to its connection's loop.
struct WriteBuffer {
    /// One queued piece: bytes in memory, or a region of a sealed file.
    private enum Chunk {
        case bytes([UInt8])
        case file(FileRegion)

        var count: Int {
            switch self {
            case .bytes(let bytes): bytes.count
            case .file(let region): region.count
            }
        }
    }

    /// Unsent pieces in order; `chunks[first]` is partly sent (`firstOffset` bytes of it).
    private var chunks: [Chunk] = []
    private var first = 0
    private var firstOffset = 0

    /// Unsent byte count.
    private(set) var count = 0

    /// At most this many arrays go into one `sendmsg` (the rest on the next call).
    static let maxVectors = 16

    /// Bytes of storage held: the queued arrays' capacities plus the queue's own (for tests proving memory
    /// does not grow with the bytes sent, and is released when drained). A file region holds none.
    var storageCapacity: Int {
        chunks[first...].reduce(chunks.capacity * MemoryLayout<Chunk>.stride) { total, chunk in
            if case .bytes(let bytes) = chunk { total + bytes.capacity } else { total }
        }
    }

    /// Queues `bytes` (shared, not copied).
    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        chunks.append(.bytes(bytes))
        count += bytes.count
    }

    /// Queues a file region (sent with `sendfile`; its file is kept open until it is sent or dropped).
    mutating func append(_ region: FileRegion) {
        guard region.count > 0 else { return }
        chunks.append(.file(region))
        count += region.count
    }

    /// Queues `bytes[offset...]`, the unsent tail of an array partly written straight to the socket: into an
    /// empty buffer the array itself is queued (shared, not copied) with `offset` bytes marked sent.
    mutating func append(_ bytes: [UInt8], from offset: Int) {
        precondition(offset >= 0 && offset <= bytes.count, "offset outside the array")
        guard offset > 0 else { return append(bytes) }
        guard offset < bytes.count else { return }
        guard count == 0 else { return append(bytes[offset...]) }
        chunks = [.bytes(bytes)]
        first = 0
        firstOffset = offset
        count = bytes.count - offset
    }

    /// Queues a copy of `bytes`.
    mutating func append(_ bytes: some Collection<UInt8>) {
        append(Array(bytes))
    }

    /// Calls `body` with up to `maxVectors` vectors over the unsent arrays, oldest first, up to the first file
    /// region (none when empty or when a file region is first: see ``unsentFileFront``). The pointers are valid
    /// only inside `body`.
    func withUnsentVectors<R>(_ body: (UnsafeBufferPointer<iovec>) -> R) -> R {
        let end = vectorsEnd
        return withUnsafeTemporaryAllocation(of: iovec.self, capacity: Self.maxVectors) { vectors in
            gather(from: first, end: end, into: vectors, filled: 0, body)
        }
    }

    /// Whether a file region directly follows the arrays ``withUnsentVectors(_:)`` offers, so a sender can tell the
    /// kernel more is coming (`MSG_MORE`: a response head and its file body leave in full segments).
    var fileFollowsVectors: Bool {
        let end = vectorsEnd
        guard end < chunks.count, case .file = chunks[end] else { return false }
        return true
    }

    /// The unsent part of the front file region (its file's fd, the offset in that file, the length) when the
    /// oldest unsent bytes are in a file; nil when they are in an array (or nothing is queued). The fd stays open
    /// while the region is queued.
    var unsentFileFront: (fd: Int32, offset: Int, count: Int)? {
        guard first < chunks.count, case .file(let region) = chunks[first] else { return nil }
        return (region.file.fd, region.offset + firstOffset, region.count - firstOffset)
    }

    /// The end of the run of arrays from the front that one gathering send can take (at most `maxVectors`).
    private var vectorsEnd: Int {
        var end = first
        while end < chunks.count, end - first < Self.maxVectors, case .bytes = chunks[end] { end += 1 }
        return end
    }

    /// Fills one vector per array inside nested `withUnsafeBytes` scopes, so every pointer stays valid.
    private func gather<R>(
        from index: Int, end: Int, into vectors: UnsafeMutableBufferPointer<iovec>, filled: Int,
        _ body: (UnsafeBufferPointer<iovec>) -> R
    ) -> R {
        guard index < end, case .bytes(let bytes) = chunks[index] else {
            return body(UnsafeBufferPointer(rebasing: vectors[..<filled]))
        }
        return bytes.withUnsafeBytes { raw in
            let skip = index == first ? firstOffset : 0
            vectors[filled] = iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + skip),
                                    iov_len: raw.count - skip)
            return gather(from: index + 1, end: end, into: vectors, filled: filled + 1, body)
        }
    }

    /// Calls `body` with the unsent bytes copied into one contiguous buffer, file regions read (for tests and small
    /// callers).
    func withUnsentBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        var joined: [UInt8] = []
        joined.reserveCapacity(count)
        for (index, chunk) in chunks[first...].enumerated() {
            let skip = index == 0 ? firstOffset : 0
            switch chunk {
            case .bytes(let bytes): joined.append(contentsOf: bytes[skip...])
            case .file(let region): joined.append(contentsOf: region.file.read(offset: region.offset + skip,
                                                                               count: region.count - skip))
            }
        }
        return joined.withUnsafeBytes(body)
    }

    /// Marks `sent` bytes (at most `count`) as sent, dropping every array fully sent. When nothing is left
    /// unsent, all storage is released.
    mutating func consume(_ sent: Int) {
        precondition(sent >= 0 && sent <= count, "consumed more than was queued")
        count -= sent
        if count == 0 {
            chunks = []
            first = 0
            firstOffset = 0
            return
        }
        var left = sent
        while left > 0 {
            let remaining = chunks[first].count - firstOffset
            if left < remaining {
                firstOffset += left
                break
            }
            left -= remaining
            chunks[first] = .bytes([])   // release its storage (or its file) now
            first += 1
            firstOffset = 0
        }
        // Drop the sent slots once they are the larger part, so the queue stays proportional to what is unsent.
        if first >= 32, first * 2 >= chunks.count {
            chunks.removeFirst(first)
            first = 0
        }
    }
}
