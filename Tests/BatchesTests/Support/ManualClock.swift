import Locking
@testable import Batches

/// A clock that only moves when the test calls ``advance(by:)``. Thread-safe.
final class ManualClock: BatchesClock {
    private struct Timer {
        let deadline: Duration
        let delay: Duration
        let action: @Sendable () -> Void
    }

    private struct State {
        var now: Duration = .zero
        /// Timers scheduled so far (cancelled ones included).
        var nextID = 0
        var timers: [Int: Timer] = [:]
    }

    private let state = Lock(State())

    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let id = state.withLock { state in
            state.nextID += 1
            state.timers[state.nextID] = Timer(deadline: state.now + delay, delay: delay, action: action)
            return state.nextID
        }
        return { [self] in _ = state.withLock { $0.timers.removeValue(forKey: id) } }
    }

    /// How many timers were ever scheduled, cancelled ones included.
    var scheduledCount: Int { state.withLock { $0.nextID } }

    /// The delays of the timers still armed.
    var pendingDelays: [Duration] { state.withLock { $0.timers.values.map(\.delay) } }

    /// Moves time forward and runs, outside the lock and in deadline order, every timer now due.
    func advance(by duration: Duration) {
        let due = state.withLock { state -> [Timer] in
            state.now += duration
            let due = state.timers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.timers.removeValue(forKey: id) }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for timer in due { timer.action() }
    }
}
