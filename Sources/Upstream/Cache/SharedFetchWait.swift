import Locking

/// Waits for a shared fetch's result, but gives up with ``UpstreamError/cancelled`` as soon as the waiting
/// task is cancelled. The fetch itself goes on for its other waiters (and the cache).
///
/// Thread-safe: the continuation is resumed exactly once, under a `Lock`, by whichever comes first.
enum SharedFetchWait<Item: Sendable> {
    private final class Once: Sendable {
        private let state = Lock<(continuation: CheckedContinuation<Result<UpstreamPage<Item>, UpstreamError>, Never>?, result: Result<UpstreamPage<Item>, UpstreamError>?)>((nil, nil))

        /// Hands over the continuation; resumes it at once if a result (or a cancel) came first.
        func attach(_ continuation: CheckedContinuation<Result<UpstreamPage<Item>, UpstreamError>, Never>) {
            let early = state.withLock { state -> Result<UpstreamPage<Item>, UpstreamError>? in
                guard let result = state.result else {
                    state.continuation = continuation
                    return nil
                }
                return result
            }
            if let early { continuation.resume(returning: early) }
        }

        /// Delivers `result` unless one was delivered already.
        func resume(_ result: Result<UpstreamPage<Item>, UpstreamError>) {
            let continuation = state.withLock { state -> CheckedContinuation<Result<UpstreamPage<Item>, UpstreamError>, Never>? in
                guard state.result == nil else { return nil }
                state.result = result
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume(returning: result)
        }
    }

    /// The fetch's result, or `.failure(.cancelled)` if the calling task is cancelled first.
    static func value(of fetch: Task<Result<UpstreamPage<Item>, UpstreamError>, Never>) async -> Result<UpstreamPage<Item>, UpstreamError> {
        let once = Once()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                once.attach(continuation)
                Task { once.resume(await fetch.value) }
            }
        } onCancel: {
            once.resume(.failure(.cancelled))
        }
    }
}
