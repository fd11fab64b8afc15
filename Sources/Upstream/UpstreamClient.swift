import Synchronization

/// An HTTP client for upstream APIs, built on libcurl's multi interface.
///
/// Thread-safe. One multi handle and one worker thread per client; no curl call ever runs on the
/// caller's thread or on Swift's cooperative pool. Connections are reused through the multi handle's
/// connection cache. At most ``UpstreamClientConfiguration/maxConcurrentTransfers`` run at once;
/// the rest wait in a queue. Call ``shutdown()`` when done (deinit does it too). Each fetch is a ``TransferTicket``
/// (below), whose continuation the transfer serving it resumes with its response on the worker thread.
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
        let cancel = TransferTicket.CancelFlag()
        let engine = self.engine
        // The transfer serving the ticket resumes the continuation with its response (EasyTransfer.swift): the
        // response comes back here as it was made, nothing on the way.
        return try await withTaskCancellationHandler {
            await withCheckedContinuation { fetch in
                engine.submit(TransferTicket(request: request, cancel: cancel, fetch: fetch))
            }
        } onCancel: {
            cancel.raise()
            engine.wakeForCancellation()
        }.get()
    }

    /// Aborts in-flight and queued transfers (they fail with ``UpstreamError/shutdown``), stops the
    /// worker thread and waits for it to exit. Idempotent; later fetches fail with `.shutdown`.
    /// - Important: blocks briefly; do not call from an ``UpstreamObserver`` callback.
    public func shutdown() {
        engine.shutdown()
    }
}

/// One ``UpstreamClient/fetch(_:)`` as the worker thread sees it: the request, the fetch's continuation and its
/// cancellation flag. A plain holder: whoever ends the fetch resumes `fetch` itself, exactly once (the transfer
/// serving it with its response, EasyTransfer.swift; the engine for a fetch that never became a transfer or was
/// aborted, TransferEngine.swift). Each ticket is in exactly one place at a time (the inbox, the queue, a running
/// transfer), and the one that takes it out ends it.
///
/// Thread-safe: immutable; the flag is atomic.
struct TransferTicket: Sendable {
    typealias Outcome = Result<UpstreamResponse, UpstreamError>

    /// Set by the calling task's cancellation handler (any thread), read by the worker.
    final class CancelFlag: Sendable {
        private let raised = Atomic<Bool>(false)

        /// Records the caller's wish to cancel; the worker acts on it.
        func raise() { raised.store(true, ordering: .releasing) }

        var isRaised: Bool { raised.load(ordering: .acquiring) }
    }

    /// What to fetch.
    let request: UpstreamRequest
    let cancel: CancelFlag
    /// The awaiting fetch: resumed exactly once, with the response or the failure.
    let fetch: CheckedContinuation<Outcome, Never>

    /// Whether the calling task asked to cancel.
    var isCancelRequested: Bool { cancel.isRaised }
}
