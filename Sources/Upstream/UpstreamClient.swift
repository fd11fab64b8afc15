import Locking
import Synchronization

/// An HTTP client for upstream APIs, built on libcurl's multi interface.
///
/// Thread-safe. One multi handle and one worker thread per client; no curl call ever runs on the
/// caller's thread or on Swift's cooperative pool. Connections are reused through the multi handle's
/// connection cache. At most ``UpstreamClientConfiguration/maxConcurrentTransfers`` run at once;
/// the rest wait in a queue. Call ``shutdown()`` when done (deinit does it too). Each fetch is a ``TransferTicket``
/// (below), which the transfer serving it finishes with its response on the worker thread.
public final class UpstreamClient: UpstreamTransport {
    private let engine: TransferEngine

    /// Creates the client and starts its worker thread.
    public init(configuration: UpstreamClientConfiguration = .init(), observer: UpstreamObserver? = nil) throws {
        engine = try TransferEngine(configuration: configuration, observer: observer)
    }

    deinit {
        engine.shutdown()
    }

    /// Performs `request` and returns the upstream's answer, whatever its status: a non-2xx answer
    /// is returned, not thrown, so callers decide.
    ///
    /// Cancelling the calling task aborts the transfer promptly (its easy handle is removed from
    /// the multi handle) and throws ``UpstreamError/cancelled``.
    public func fetch(_ request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
        let ticket = TransferTicket(request: request)
        let engine = self.engine
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                ticket.attach(continuation)
                engine.submit(ticket)
            }
        } onCancel: {
            ticket.requestCancel()
            engine.wakeForCancellation()
        }
        return try outcome.get()
    }

    /// Aborts in-flight and queued transfers (they fail with ``UpstreamError/shutdown``), stops the
    /// worker thread and waits for it to exit. Idempotent; later fetches fail with `.shutdown`.
    /// - Important: blocks briefly; do not call from an ``UpstreamObserver`` callback.
    public func shutdown() {
        engine.shutdown()
    }
}

/// One ``UpstreamClient/fetch(_:)`` as the worker thread sees it: the request, the fetch's continuation to resume
/// exactly once and its cancellation flag. The transfer serving it finishes it (EasyTransfer.swift) with the response
/// its callbacks wrote, so the response goes from the transfer straight back to the awaiting fetch above.
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