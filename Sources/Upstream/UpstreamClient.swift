/// An HTTP client for upstream APIs, built on libcurl's multi interface.
///
/// Thread-safe. One multi handle and one worker thread per client; no curl call ever runs on the
/// caller's thread or on Swift's cooperative pool. Connections are reused through the multi handle's
/// connection cache. At most ``UpstreamClientConfiguration/maxConcurrentTransfers`` run at once;
/// the rest wait in a queue. Call ``shutdown()`` when done (deinit does it too).
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
