import Locking

/// The viewers waiting for one shared page fetch (``PageCache``): each waits in ``wait()`` until the fetch hands its
/// result to all of them at once (``finish(_:)``), or, if its task is cancelled first, stops waiting at once with
/// ``UpstreamError/cancelled`` while the fetch goes on for the others. A waiter costs one continuation, no task of
/// its own (a storm of arrivals during a first fetch made a task per viewer, each waking a pool thread). A waiter with
/// no task at all registers a callback instead (``whenFinished(_:)``), called with the result on the thread that
/// finishes the fetch.
///
/// Thread-safe: one `Lock`; every continuation is resumed exactly once, outside it, by whichever comes first of the
/// result and its waiter's cancellation; every callback is called at most once, outside it, unless stopped first.
final class FetchWaiters<Item: Sendable>: Sendable {
    typealias Outcome = Result<UpstreamPage<Item>, UpstreamError>

    private struct State {
        var result: Outcome?
        var waiting: [UInt64: CheckedContinuation<Outcome, Never>] = [:]
        /// Waiters cancelled before their continuation was handed over.
        var cancelled: Set<UInt64> = []
        var callbacks: [UInt64: @Sendable (Outcome) -> Void] = [:]
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

    /// What ``whenFinished(_:)`` did: registered the callback (and how to stop it), or found the fetch finished.
    enum Registration: Sendable {
        case registered(stop: @Sendable () -> Void)
        case finished(Outcome)
    }

    /// Registers `callback`, called with the fetch's result on the thread that finishes it (never on this one), and
    /// returns what stops it (the callback is then not called, unless the fetch is handing it its result already).
    /// If the fetch has finished, registers nothing and returns its result. Any thread.
    func whenFinished(_ callback: @escaping @Sendable (Outcome) -> Void) -> Registration {
        var id: UInt64 = 0
        let finished = state.withLock { state -> Outcome? in
            if let result = state.result { return result }
            state.lastID += 1
            id = state.lastID
            state.callbacks[id] = callback
            return nil
        }
        if let finished { return .finished(finished) }
        return .registered(stop: { [weak self, id] in _ = self?.state.withLock { $0.callbacks.removeValue(forKey: id) } })
    }

    /// Hands `result` to every waiter and callback, and to every later one at once. Called once, by the fetch.
    func finish(_ result: Outcome) {
        let (waiting, callbacks) = state.withLock { state in
            state.result = result
            state.cancelled = []
            defer {
                state.waiting = [:]
                state.callbacks = [:]
            }
            // Callbacks in the order they came.
            return (Array(state.waiting.values), state.callbacks.sorted { $0.key < $1.key }.map(\.value))
        }
        for continuation in waiting { continuation.resume(returning: result) }
        for callback in callbacks { callback(result) }
    }

    /// Waiters waiting now, tasks and callbacks (tests).
    var count: Int { state.withLock { $0.waiting.count + $0.callbacks.count } }
}
