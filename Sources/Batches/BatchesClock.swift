import Dispatch

/// A clock the data source uses for load timeouts; tests inject a manual one.
///
/// Thread-safe: implementations must accept calls from any thread, and may run `action` on any thread.
public protocol BatchesClock: Sendable {
    /// Calls `action` once after `delay`, unless the returned cancel closure is called first.
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void
}

/// The real clock: every load's timeout goes on one process-wide ``TimeoutWheel`` (one dispatch timer source for
/// all of them, deadlines rounded up to 50 ms). Thread-safe.
///
/// A load costs an entry in a dictionary, not a timer source of its own: viewers arriving at once do not each
/// create and cancel a kernel timer and wake libdispatch's manager thread. Cancelling removes the entry at once:
/// a load that finishes in milliseconds leaves nothing behind for the rest of its timeout (an idle viewer holds
/// no timer). An action runs at its delay or up to one tick later, never earlier.
public struct SystemBatchesClock: BatchesClock {
    /// Creates the system clock.
    public init() {}

    /// Runs `action` on a global queue after `delay`; the cancel closure stops it if it has not run yet.
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        TimeoutWheel.shared.schedule(afterNanoseconds: Self.nanoseconds(delay), action)
    }

    /// `delay` in nanoseconds, clamped to `0...Int.max` (negative delays run at once).
    static func nanoseconds(_ delay: Duration) -> Int {
        let (seconds, attoseconds) = delay.components
        if seconds < 0 { return 0 }
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return Int.max }
        let (total, overflow2) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflow2 ? Int.max : Int(max(0, total))
    }
}
