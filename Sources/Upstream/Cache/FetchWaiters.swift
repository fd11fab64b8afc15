import Locking

/// The viewers waiting for one shared page fetch (``PageCache``): each waits in ``wait()`` until the fetch hands its
/// result to all of them at once (``finish(_:)``), or, if its task is cancelled first, stops waiting at once with
/// ``UpstreamError/cancelled`` while the fetch goes on for the others. A waiter costs one continuation, no task of
/// its own (a storm of arrivals during a first fetch made a task per viewer, each waking a pool thread).
///
/// Thread-safe: one `Lock`; every continuation is resumed exactly once, outside it, by whichever comes first of the
/// result and its waiter's cancellation.
final class FetchWaiters<Item: Sendable>: Sendable {
    typealias Outcome = Result<UpstreamPage<Item>, UpstreamError>

    private struct State {
        var result: Outcome?
        var waiting: [UInt64: CheckedContinuation<Outcome, Never>] = [:]
        /// Waiters cancelled before their continuation was handed over.
        var cancelled: Set<UInt64> = []
        var lastID: UInt64 = 0
    }

    private let state = Lock(State())

    /// The fetch's result, or `.failure(.cancelled)` if the calling task is cancelled first.
    func wait() async -> Outcome {
        let id = state.withLock { state -> UInt64 in
            state.lastID += 1
            return state.lastID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let now = state.withLock { state -> Outcome? in
                    if let result = state.result { return result }
                    if state.cancelled.remove(id) != nil { return .failure(.cancelled) }
                    state.waiting[id] = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
                guard state.result == nil else { return nil }
                guard let continuation = state.waiting.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return continuation
            }
            continuation?.resume(returning: .failure(.cancelled))
        }
    }

    /// Hands `result` to every waiter, and to every later one at once. Called once, by the fetch.
    func finish(_ result: Outcome) {
        let waiting = state.withLock { state -> [CheckedContinuation<Outcome, Never>] in
            state.result = result
            state.cancelled = []
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume(returning: result) }
    }

    /// Waiters waiting now (tests).
    var count: Int { state.withLock { $0.waiting.count } }
}
