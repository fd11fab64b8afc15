import Synchronization

/// A monotonically increasing integer, rendered as a Prometheus `counter`.
///
/// Create one through ``MetricsRegistry/counter(_:help:labels:)`` so `/metrics` lists it. By Prometheus
/// convention the caller names counters `*_total`.
///
/// Thread-safe: every method may be called from any thread; updates are lock-free atomics.
public final class Counter: Sendable {
    private let storage = Atomic<Int>(0)

    init() {}

    /// Adds `amount` (default 1) to the counter.
    ///
    /// - Precondition: `amount >= 0`; a counter never goes down (use a ``Gauge`` for that).
    public func increment(by amount: Int = 1) {
        precondition(amount >= 0, "Counter.increment(by:) needs a non-negative amount, got \(amount)")
        storage.wrappingAdd(amount, ordering: .relaxed)
    }

    /// The current total.
    public var value: Int {
        storage.load(ordering: .relaxed)
    }
}
