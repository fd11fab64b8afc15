import Locking

/// Observations counted into fixed buckets, rendered as a Prometheus `histogram`: one cumulative
/// `_bucket` series per upper bound (`le`, inclusive) plus `+Inf`, then `_sum` and `_count`.
///
/// Create one through ``MetricsRegistry/histogram(_:help:buckets:labels:)``.
///
/// Thread-safe: every method may be called from any thread; one observation updates the bucket, the sum
/// and the count together under a `Lock`, so a render never sees them disagree.
public final class Histogram: Sendable {
    /// The finite upper bounds, strictly increasing; `+Inf` is implied.
    public let upperBounds: [Double]
    private let state: Lock<State>

    struct State {
        /// Per-bucket (not cumulative) counts; the last slot is the `+Inf` bucket.
        var counts: [Int]
        var sum: Double = 0
        var count: Int = 0
    }

    /// A consistent copy of the histogram taken at one instant.
    struct Snapshot {
        /// Cumulative counts, one per upper bound, then `+Inf` (which equals `count`).
        var cumulative: [Int]
        var sum: Double
        var count: Int
    }

    init(upperBounds: [Double]) {
        self.upperBounds = upperBounds
        self.state = Lock(State(counts: Array(repeating: 0, count: upperBounds.count + 1)))
    }

    /// Records one observation: it lands in the first bucket whose upper bound is `>= v`.
    public func observe(_ v: Double) {
        let index = upperBounds.firstIndex { v <= $0 } ?? upperBounds.count
        state.withLock { state in
            state.counts[index] += 1
            state.sum += v
            state.count += 1
        }
    }

    /// The number of observations so far.
    public var count: Int { state.withLock { $0.count } }

    /// The sum of all observations so far.
    public var sum: Double { state.withLock { $0.sum } }

    func snapshot() -> Snapshot {
        let copy = state.withLock { $0 }
        var running = 0
        let cumulative = copy.counts.map { running += $0; return running }
        return Snapshot(cumulative: cumulative, sum: copy.sum, count: copy.count)
    }
}
