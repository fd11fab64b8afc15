import Glibc

/// A connection's outgoing bytes: a queue of the arrays handed to it, sent from the front with one gathering
/// `sendmsg` (no copy: a cached file or an encoded event is queued as the array it is, shared, not copied).
///
/// Memory: the buffer holds only what is unsent. Once everything is sent it holds no storage at all, so an
/// idle connection (an SSE stream between events) costs nothing here however large its last write was.
///
/// Thread rules: a value confined to its connection's loop.
struct WriteBuffer {
    /// Unsent arrays in order; `chunks[first]` is partly sent (`firstOffset` bytes of it). Empty while the queue
    /// holds at most one array: that one is `solo`.
    private var chunks: [[UInt8]] = []
    /// The only unsent array (`firstOffset` bytes of it sent) while `chunks` is empty: a stream's usual queue, one event
    /// a pass, costs no allocation of its own (queueing it into `chunks` took a malloc and a free per event).
    private var solo: [UInt8] = []
    private var first = 0
    private var firstOffset = 0

    /// Unsent byte count.
    private(set) var count = 0

    /// At most this many arrays go into one `sendmsg` (the rest on the next call): under backlog, one end-of-pass
    /// send covers every event a pass queued for a connection (``ServerLoop``), up to this many.
    static let maxVectors = 64

    /// Bytes of storage held: the queued arrays' capacities plus the queue's own (for tests proving memory
    /// does not grow with the bytes sent, and is released when drained).
    var storageCapacity: Int {
        if chunks.isEmpty { return solo.capacity }
        return chunks[first...].reduce(chunks.capacity * MemoryLayout<[UInt8]>.stride) { $0 + $1.capacity }
    }

    /// Queues `bytes` (shared, not copied).
    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        if chunks.isEmpty {
            if count == 0 {
                solo = bytes
                firstOffset = 0
                count = bytes.count
                return
            }
            chunks.reserveCapacity(8)  // a stream opening queues its head and three events: one allocation
            chunks.append(solo)
            solo = []
            first = 0
        }
        chunks.append(bytes)
        count += bytes.count
    }

    /// Queues `bytes[offset...]`, the unsent tail of an array partly written straight to the socket: into an
    /// empty buffer the array itself is queued (shared, not copied) with `offset` bytes marked sent.
    mutating func append(_ bytes: [UInt8], from offset: Int) {
        precondition(offset >= 0 && offset <= bytes.count, "offset outside the array")
        guard offset > 0 else { return append(bytes) }
        guard offset < bytes.count else { return }
        guard count == 0 else { return append(bytes[offset...]) }
        solo = bytes
        firstOffset = offset
        count = bytes.count - offset
    }

    /// Queues a copy of `bytes`.
    mutating func append(_ bytes: some Collection<UInt8>) {
        append(Array(bytes))
    }

    /// Calls `body` with up to `maxVectors` vectors over the unsent bytes, oldest first (none when empty).
    /// The pointers are valid only inside `body`.
    func withUnsentVectors<R>(_ body: (UnsafeBufferPointer<iovec>) -> R) -> R {
        if chunks.isEmpty {
            guard count > 0 else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
            return solo.withUnsafeBytes { raw in
                var vector = iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + firstOffset),
                                   iov_len: raw.count - firstOffset)
                return withUnsafePointer(to: &vector) { body(UnsafeBufferPointer(start: $0, count: 1)) }
            }
        }
        let end = min(chunks.count, first + Self.maxVectors)
        return withUnsafeTemporaryAllocation(of: iovec.self, capacity: Self.maxVectors) { vectors in
            gather(from: first, end: end, into: vectors, filled: 0, body)
        }
    }

    /// Fills one vector per array inside nested `withUnsafeBytes` scopes, so every pointer stays valid.
    private func gather<R>(
        from index: Int, end: Int, into vectors: UnsafeMutableBufferPointer<iovec>, filled: Int,
        _ body: (UnsafeBufferPointer<iovec>) -> R
    ) -> R {
        guard index < end else { return body(UnsafeBufferPointer(rebasing: vectors[..<filled])) }
        return chunks[index].withUnsafeBytes { raw in
            let skip = index == first ? firstOffset : 0
            vectors[filled] = iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + skip),
                                    iov_len: raw.count - skip)
            return gather(from: index + 1, end: end, into: vectors, filled: filled + 1, body)
        }
    }

    /// Calls `body` with the first queued array's unsent bytes (none when empty). For a send through io_uring the
    /// pointer outlives `body`: valid while that array stays queued, which it does until `consume` takes it (the
    /// buffer only appends meanwhile, and an array's storage does not move while it is held and unchanged).
    func withFirstUnsentBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        if chunks.isEmpty {
            guard count > 0 else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
            return solo.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[firstOffset...])) }
        }
        guard first < chunks.count else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return chunks[first].withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[firstOffset...])) }
    }

    /// Writes vectors over up to `vectors.count` queued arrays' unsent bytes, oldest first, and returns how many. For
    /// a send through io_uring the pointers outlive this call, like ``withFirstUnsentBytes(_:)``'s: each is valid
    /// while its array stays queued, which it does until `consume` takes it.
    func fillVectors(_ vectors: UnsafeMutableBufferPointer<iovec>) -> Int {
        if chunks.isEmpty {
            guard count > 0, !vectors.isEmpty else { return 0 }
            solo.withUnsafeBytes { raw in
                vectors[0] = iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + firstOffset),
                                   iov_len: raw.count - firstOffset)
            }
            return 1
        }
        let end = min(chunks.count, first + vectors.count)
        for index in first..<max(first, end) {
            let skip = index == first ? firstOffset : 0
            chunks[index].withUnsafeBytes { raw in
                vectors[index - first] = iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + skip),
                                               iov_len: raw.count - skip)
            }
        }
        return max(0, end - first)
    }

    /// Calls `body` with the unsent bytes copied into one contiguous buffer (for tests and small callers).
    func withUnsentBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        if chunks.isEmpty { return Array(solo[firstOffset...]).withUnsafeBytes(body) }
        var joined: [UInt8] = []
        joined.reserveCapacity(count)
        for (index, chunk) in chunks[first...].enumerated() {
            joined.append(contentsOf: chunk[(index == 0 ? firstOffset : 0)...])
        }
        return joined.withUnsafeBytes(body)
    }

    /// Marks `sent` bytes (at most `count`) as sent, dropping every array fully sent. When nothing is left
    /// unsent, all storage is released.
    mutating func consume(_ sent: Int) {
        precondition(sent >= 0 && sent <= count, "consumed more than was queued")
        count -= sent
        if count == 0 {
            if !chunks.isEmpty { chunks = [] }
            solo = []
            first = 0
            firstOffset = 0
            return
        }
        if chunks.isEmpty {
            firstOffset += sent
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
            chunks[first] = []   // release its storage now
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
