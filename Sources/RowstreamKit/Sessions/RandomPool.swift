import Locking

/// Random bytes from the kernel's generator, fetched `capacity` at a time (one `getentropy(3)`, one `getrandom(2)`)
/// and handed out once each, zeroed in the pool as they go: a session id costs no system call of its own (a storm of
/// 10,000 arrivals made 10,000 `getrandom`s, now 625). The bytes are the kernel's as before, only fetched in advance;
/// the pool is never copied into another process (Rowstream does not fork).
///
/// Thread rules: thread-safe (one `Lock`); every event loop opening a session takes from ``shared``.
final class RandomPool: Sendable {
    /// The pool session ids come from (``SessionID/make(tag:fill:)``).
    static let shared = RandomPool()

    /// Bytes fetched per refill: `getentropy`'s most.
    static let capacity = 256

    private struct Bytes {
        var storage = [UInt8](repeating: 0, count: RandomPool.capacity)
        /// The first byte not yet handed out; `capacity` when all are.
        var next = RandomPool.capacity
    }

    private let bytes = Lock(Bytes())
    private let refill: @Sendable (UnsafeMutableRawBufferPointer) -> Void

    /// A pool refilled by `refill` (the kernel's generator; a seam for tests), empty until first used.
    init(refill: @escaping @Sendable (UnsafeMutableRawBufferPointer) -> Void = SessionID.systemRandom) {
        self.refill = refill
    }

    /// Fills `buffer` (at most ``capacity`` bytes) with bytes no other call gets.
    func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        precondition(buffer.count <= Self.capacity, "at most \(Self.capacity) bytes at a time")
        bytes.withLock { pool in
            if Self.capacity - pool.next < buffer.count {
                pool.storage.withUnsafeMutableBytes { refill($0) }
                pool.next = 0
            }
            let range = pool.next..<pool.next + buffer.count
            pool.storage.withUnsafeMutableBytes { stored in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: stored[range]))
                for index in range { stored[index] = 0 }
            }
            pool.next = range.upperBound
        }
    }
}
