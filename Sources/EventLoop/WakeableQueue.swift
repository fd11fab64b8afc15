import CSystem
import Foundation
import Locking

/// An event loop's work queue: closures other threads hand in (`submit`), and the eventfd that wakes the loop's
/// `epoll_wait` when the first of them arrives (one write per batch, not per closure).
///
/// Thread rules: `submit` and `close` are thread-safe (a lock over the queue). `take` and `drainWakeUp` are called
/// by the loop thread only.
struct WakeableQueue: ~Copyable, Sendable {
    private struct State {
        var work: [@Sendable () -> Void] = []
        /// Whether the eventfd was written since the loop last took the work.
        var woken = false
        var accepting = true
    }

    /// The eventfd the loop watches for readability.
    let wakeFD: Int32
    private let state = Lock(State())

    init() throws(EventLoopError) {
        wakeFD = csystem_eventfd()
        guard wakeFD >= 0 else { throw .system("eventfd") }
    }

    deinit { Glibc.close(wakeFD) }

    /// Queues `work`; writes the eventfd when the loop has not been woken since it last took the work. Thread-safe.
    /// Dropped (returns false) once `close` ran.
    @discardableResult
    func submit(_ work: @escaping @Sendable () -> Void) -> Bool {
        let (accepted, wake) = state.withLock { state -> (Bool, Bool) in
            guard state.accepting else { return (false, false) }
            state.work.append(work)
            defer { state.woken = true }
            return (true, !state.woken)
        }
        if wake { _ = csystem_eventfd_signal(wakeFD) }
        return accepted
    }

    /// Resets the eventfd after `epoll_wait` reported it. - Important: loop thread only.
    func drainWakeUp() {
        _ = csystem_eventfd_drain(wakeFD)
    }

    /// The work queued so far, in submission order, leaving the queue empty. - Important: loop thread only.
    func take() -> [@Sendable () -> Void] {
        state.withLock { state in
            state.woken = false
            defer { state.work = [] }
            return state.work
        }
    }

    /// Refuses further work and drops what is queued (the loop has stopped). Thread-safe.
    func close() {
        state.withLock { $0.accepting = false; $0.work = [] }
    }
}
