import EventLoop
import Glibc

/// A point on the system's monotonic clock, in nanoseconds: what a connection's deadlines and time stamps are kept in
/// (``Connection``, its ``Connection/Timing``, the loop's sweep). `ContinuousClock.Instant` is a resilient type of the
/// standard library, so every copy and destroy of one, or of an optional or enum holding one, went through its
/// metadata's value witnesses: about 5,700 of the 80,000 instructions of an arriving viewer (callgrind). This is an
/// integer. The clock is `CLOCK_MONOTONIC` (it does not count a suspended system; a server does not sleep).
/// Thread-safe: a value.
struct MonotonicInstant: Comparable, Sendable {
    let nanoseconds: Int64

    static var now: MonotonicInstant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicInstant(nanoseconds: Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec))
    }

    /// `duration` later (clamped: a timeout of centuries is never due).
    static func + (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        let (sum, overflow) = instant.nanoseconds.addingReportingOverflow(duration.wholeNanoseconds)
        return MonotonicInstant(nanoseconds: overflow ? (duration < .zero ? .min : .max) : sum)
    }

    /// The time from `earlier` to `later`.
    static func - (later: MonotonicInstant, earlier: MonotonicInstant) -> Duration {
        .nanoseconds(later.nanoseconds &- earlier.nanoseconds)
    }

    static func < (a: MonotonicInstant, b: MonotonicInstant) -> Bool { a.nanoseconds < b.nanoseconds }
}
