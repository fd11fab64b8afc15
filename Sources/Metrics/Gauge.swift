import Synchronization

/// A value that goes up and down, rendered as a Prometheus `gauge`.
///
/// Create one through ``MetricsRegistry/gauge(_:help:labels:)``. For a value owned elsewhere and read at
/// render time, use ``MetricsRegistry/gaugeFunction(_:help:labels:_:)`` instead.
///
/// Thread-safe: every method may be called from any thread; the `Double` is kept as its bit pattern in a
/// lock-free atomic, and ``add(_:)`` is a compare-and-swap loop, so concurrent adds are never lost.
public final class Gauge: Sendable {
    private let bits = Atomic<UInt64>(0.0.bitPattern)

    init() {}

    /// Replaces the value.
    public func set(_ v: Double) {
        bits.store(v.bitPattern, ordering: .relaxed)
    }

    /// Adds `v` (which may be negative) to the value.
    public func add(_ v: Double) {
        var current = bits.load(ordering: .relaxed)
        while true {
            let updated = (Double(bitPattern: current) + v).bitPattern
            let (exchanged, original) = bits.compareExchange(
                expected: current, desired: updated, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    /// The current value.
    public var value: Double {
        Double(bitPattern: bits.load(ordering: .relaxed))
    }
}
