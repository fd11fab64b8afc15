import Dispatch
import Synchronization

/// A clock the data source uses for load timeouts; tests inject a manual one.
///
/// Thread-safe: implementations must accept calls from any thread, and may run `action` on any thread.
public protocol BatchesClock: Sendable {
    /// Calls `action` once after `delay`, unless the returned cancel closure is called first.
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void
}

/// The real clock: `DispatchQueue.global().asyncAfter`. Thread-safe.
public struct SystemBatchesClock: BatchesClock {
    /// Creates the system clock.
    public init() {}

    /// Runs `action` on a global queue after `delay`; the cancel closure stops it if it has not run yet.
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let cancelled = CancelFlag()
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.interval(delay)) {
            if !cancelled.isSet { action() }
        }
        return { cancelled.set() }
    }

    /// `delay` in nanoseconds, clamped to what `DispatchTimeInterval` holds (negative delays run at once).
    static func interval(_ delay: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = delay.components
        if seconds < 0 { return .nanoseconds(0) }
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return .nanoseconds(Int.max) }
        let (total, overflow2) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        return .nanoseconds(overflow2 ? Int.max : Int(total))
    }
}

/// A one-way flag: set once, read from any thread. Thread-safe.
private final class CancelFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .acquiring) }
    func set() { flag.store(true, ordering: .releasing) }
}
