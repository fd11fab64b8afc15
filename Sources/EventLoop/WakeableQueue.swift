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
        /// Jobs of tasks that prefer the loop (``EventLoop``'s `TaskExecutor`), run after the work.
        var jobs: [UnownedJob] = []
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
        queue { $0.work.append(work) }
    }

    /// Queues a task's job as ``submit(_:)`` queues work; false once `close` ran (the caller runs it elsewhere).
    /// Thread-safe.
    func submit(_ job: UnownedJob) -> Bool {
        queue { $0.jobs.append(job) }
    }

    /// Adds to the queue with `add` unless closed, and wakes the loop if it was not woken since it last took work.
    private func queue(_ add: (inout State) -> Void) -> Bool {
        let (accepted, wake) = state.withLock { state -> (Bool, Bool) in
            guard state.accepting else { return (false, false) }
            add(&state)
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

    /// The work and the jobs queued so far, each in submission order, leaving the queue empty. - Important: loop
    /// thread only.
    func take() -> (work: [@Sendable () -> Void], jobs: [UnownedJob]) {
        state.withLock { state in
            state.woken = false
            defer {
                state.work = []
                state.jobs = []
            }
            return (state.work, state.jobs)
        }
    }

    /// Refuses further work and drops the work queued (the loop has stopped); returns the jobs queued, which must
    /// still run (a task's job dropped would leave its task suspended forever). Thread-safe.
    func close() -> [UnownedJob] {
        state.withLock { state in
            state.accepting = false
            state.work = []
            defer { state.jobs = [] }
            return state.jobs
        }
    }
}
