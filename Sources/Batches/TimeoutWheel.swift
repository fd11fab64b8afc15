import Dispatch
import Locking

/// One-shot timeouts for many callers on one dispatch timer source: deadlines rounded up to a tick, actions
/// kept per tick, the source armed for the earliest tick that holds any.
///
/// Scheduling adds a dictionary entry and re-arms the source only when the new tick is earlier than the armed
/// one (loads arriving together have later or equal deadlines, so they never re-arm it). Cancelling removes the
/// entry (and its tick when it was the last), so nothing is kept for a cancelled timeout. When the source fires,
/// every due tick's actions run, outside the lock, on the source's global queue; a fire with nothing due (its
/// entries cancelled) only re-arms for what is left, or for nothing.
///
/// Thread-safe: every method may be called from any thread; state is behind one `Lock`.
final class TimeoutWheel: Sendable {
    /// The process's wheel, for ``SystemBatchesClock``.
    static let shared = TimeoutWheel(tickNanoseconds: 50_000_000)

    private struct Entries {
        var ticks: [UInt64: [UInt64: @Sendable () -> Void]] = [:]
        var nextID: UInt64 = 0
        /// The tick the source is set to fire at; nil while it is set to never fire.
        var armedTick: UInt64?
        /// Whether ``holdFiring()`` suspended the source.
        var held = false
    }

    private let tickNanoseconds: UInt64
    private let entries = Lock(Entries())
    // The source is created once and never cancelled; `schedule(deadline:)` may be called on it from any thread.
    private nonisolated(unsafe) let source: any DispatchSourceTimer

    /// A wheel whose deadlines are rounded up to multiples of `tickNanoseconds` (> 0) of the uptime clock.
    init(tickNanoseconds: UInt64) {
        precondition(tickNanoseconds > 0)
        self.tickNanoseconds = tickNanoseconds
        source = DispatchSource.makeTimerSource(queue: .global())
        source.schedule(deadline: .distantFuture, repeating: .never)
        source.setEventHandler { [weak self] in self?.fire() }
        source.activate()
    }

    deinit { source.cancel() }

    /// Holds every firing until ``releaseFiring()``: what falls due meanwhile runs at the release. For tests that
    /// must decide what happens before a deadline however slowly they run. A held wheel must be released before it
    /// is freed (libdispatch traps on a suspended source's release).
    func holdFiring() {
        entries.withLock { locked in
            guard !locked.held else { return }
            locked.held = true
            source.suspend()
        }
    }

    /// Lets a held wheel fire again (see ``holdFiring()``); does nothing when it is not held.
    func releaseFiring() {
        entries.withLock { locked in
            guard locked.held else { return }
            locked.held = false
            source.resume()
        }
    }

    /// Timeouts scheduled and neither run nor cancelled.
    var pendingCount: Int {
        entries.withLock { locked in locked.ticks.values.reduce(0) { $0 + $1.count } }
    }

    /// Calls `action` once, at least `nanoseconds` from now (at most one tick later), unless the returned closure
    /// is called first. Calling it after the action ran, or twice, does nothing.
    func schedule(afterNanoseconds nanoseconds: Int, _ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let deadline = DispatchTime.now().uptimeNanoseconds.addingSaturated(UInt64(max(0, nanoseconds)))
        let tick = deadline / tickNanoseconds + (deadline % tickNanoseconds == 0 ? 0 : 1)
        let id = entries.withLock { locked in
            let id = locked.nextID
            locked.nextID += 1
            locked.ticks[tick, default: [:]][id] = action
            if locked.armedTick.map({ tick < $0 }) ?? true { arm(tick, &locked) }
            return id
        }
        return { [weak self] in self?.cancel(id, at: tick) }
    }

    private func cancel(_ id: UInt64, at tick: UInt64) {
        entries.withLock { locked in
            guard locked.ticks[tick]?.removeValue(forKey: id) != nil, locked.ticks[tick]?.isEmpty == true else { return }
            locked.ticks[tick] = nil
        }
    }

    /// Runs the actions of every tick due now and re-arms for the earliest tick left. On the source's queue.
    private func fire() {
        let now = DispatchTime.now().uptimeNanoseconds
        let due: [@Sendable () -> Void] = entries.withLock { locked in
            var due: [(tick: UInt64, id: UInt64, action: @Sendable () -> Void)] = []
            var earliest: UInt64?
            for (tick, actions) in locked.ticks {
                if tick.multipliedSaturated(by: tickNanoseconds) <= now {
                    due += actions.map { (tick, $0.key, $0.value) }
                    locked.ticks[tick] = nil
                } else if earliest.map({ tick < $0 }) ?? true {
                    earliest = tick
                }
            }
            locked.armedTick = nil
            if let earliest { arm(earliest, &locked) } else { source.schedule(deadline: .distantFuture, repeating: .never) }
            // In the order they were due, then scheduled.
            return due.sorted { ($0.tick, $0.id) < ($1.tick, $1.id) }.map(\.action)
        }
        for action in due { action() }
    }

    /// Sets the source to fire at `tick`. Under the lock.
    private func arm(_ tick: UInt64, _ locked: inout Entries) {
        locked.armedTick = tick
        source.schedule(
            deadline: DispatchTime(uptimeNanoseconds: tick.multipliedSaturated(by: tickNanoseconds)), repeating: .never)
    }
}

extension UInt64 {
    fileprivate func addingSaturated(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    fileprivate func multipliedSaturated(by other: UInt64) -> UInt64 {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : product
    }
}
