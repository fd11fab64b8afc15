import Dispatch
import Synchronization

/// A clock the data source uses for load timeouts; tests inject a manual one.
///
/// Thread-safe: implementations must accept calls from any thread, and may run `action` on any thread.
public protocol BatchesClock: Sendable {
    /// Calls `action` once after `delay`, unless the returned cancel closure is called first.
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void
}

/// The real clock: a one-shot dispatch timer source on a global queue. Thread-safe.
///
/// Cancelling cancels the source, which releases it and its action at once: a load that finishes in
/// milliseconds leaves nothing behind for the rest of its timeout (an idle viewer holds no timer).
public struct SystemBatchesClock: BatchesClock {
    /// Creates the system clock.
    public init() {}

    /// Runs `action` on a global queue after `delay`; the cancel closure stops it if it has not run yet.
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let timer = OneShotTimer(DispatchSource.makeTimerSource(queue: .global()))
        timer.source.schedule(deadline: .now() + Self.interval(delay), repeating: .never)
        // The handler holds the timer (and so the source) until it fires or is cancelled: dropping the cancel
        // closure must not stop the timer. Cancelling releases the handler, which ends that cycle.
        timer.source.setEventHandler {
            timer.cancel()
            action()
        }
        timer.source.resume()
        return { timer.cancel() }
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

/// One dispatch timer source, cancelled at most once (cancelling releases its handler).
/// Thread-safe: `DispatchSource.cancel` may be called from any thread; the flag makes it once.
private final class OneShotTimer: Sendable {
    nonisolated(unsafe) let source: any DispatchSourceTimer
    private let cancelled = Atomic<Bool>(false)

    init(_ source: any DispatchSourceTimer) { self.source = source }

    func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        source.cancel()
    }
}
