import Synchronization

/// A value guarded by a lock: `Synchronization.Mutex`, made visible to ThreadSanitizer. Every lock in Rowstream is one.
///
/// Why not `Mutex` itself: on Linux a contended `Mutex` hands the lock from one thread to the next with futex calls
/// inside the Swift runtime, which is not instrumented. ThreadSanitizer then misses that happens-before edge, and
/// reports as races both accesses made under one lock and memory handed from thread to thread through it (a closure
/// queued by `EventLoop.execute`; seen in CI as a race on a Redis subscription's topics). Only when the lock was
/// contended, so such reports came and went. Here each lock body also tells ThreadSanitizer, when the process runs
/// under it, that the lock was acquired and released (``ThreadSanitizer``); otherwise that costs a read of a global set
/// once and a branch (0.25 ns a lock body: `Scripts/bench locks`).
///
/// Thread rules: thread-safe (`Sendable`, as `Mutex`). Not re-entrant: a body must not lock the same lock again.
public struct Lock<Value: ~Copyable>: ~Copyable {
    @usableFromInline let mutex: Mutex<Value>

    @inlinable
    public init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    /// Runs `body` with the value while holding the lock, and returns what it returns.
    @inlinable
    public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        guard let hooks = ThreadSanitizer.hooks else { return try mutex.withLock(body) }
        // This lock's own address names it to ThreadSanitizer: stable while the lock lives, and no other lock's. (Not
        // the value's: taking its address is itself an access, which would come before the acquire.)
        let address = withUnsafePointer(to: self) { UnsafeRawPointer($0) }
        return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            hooks.acquire(address)
            defer { hooks.release(address) }
            return try body(&value)
        }
    }
}

extension Lock: Sendable where Value: ~Copyable {}
