import Locking
import Synchronization

/// One fetch's meeting point between the calling task and the worker thread: the request, the
/// continuation to resume exactly once, and the cancellation flag.
///
/// Thread-safe.
final class TransferTicket: Sendable {
    typealias Outcome = Result<UpstreamResponse, UpstreamError>
    typealias Continuation = CheckedContinuation<Outcome, Never>

    private enum State {
        case idle
        case waiting(Continuation)
        case finished(Outcome)
        case resumed
    }

    /// What to fetch.
    let request: UpstreamRequest
    private let state = Lock<State>(.idle)
    private let cancelFlag = Atomic<Bool>(false)

    init(request: UpstreamRequest) {
        self.request = request
    }

    /// Whether the calling task asked to cancel.
    var isCancelRequested: Bool { cancelFlag.load(ordering: .acquiring) }

    /// Records the caller's wish to cancel; the worker acts on it.
    func requestCancel() {
        cancelFlag.store(true, ordering: .releasing)
    }

    /// Stores the continuation to resume; resumes it at once if the outcome is already known.
    func attach(_ continuation: Continuation) {
        let ready: Outcome? = state.withLock { state in
            switch state {
            case .idle:
                state = .waiting(continuation)
                return nil
            case .finished(let outcome):
                state = .resumed
                return outcome
            case .waiting, .resumed:
                preconditionFailure("TransferTicket.attach called twice")
            }
        }
        if let ready { continuation.resume(returning: ready) }
    }

    /// Delivers the outcome. Only the first call counts; later ones are ignored.
    func finish(_ outcome: Outcome) {
        let continuation: Continuation? = state.withLock { state in
            switch state {
            case .idle:
                state = .finished(outcome)
                return nil
            case .waiting(let continuation):
                state = .resumed
                return continuation
            case .finished, .resumed:
                return nil
            }
        }
        continuation?.resume(returning: outcome)
    }
}
