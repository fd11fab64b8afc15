import CCurl
import Dispatch
import Foundation
import Locking

/// One curl multi handle driven by one dedicated worker thread.
///
/// Thread-safe: `submit`, `wakeForCancellation` and `shutdown` may be called from any thread; they
/// only touch the locked inbox and call `curl_multi_wakeup`. Everything else (`waiting`, `active`,
/// the easy handles, every other multi call) is confined to the worker thread.
final class TransferEngine: @unchecked Sendable {
    private struct Inbox {
        var submitted: [TransferTicket] = []
        var cancelsPending = false
        var shuttingDown = false
    }

    private let multi: UnsafeMutableRawPointer
    private let configuration: UpstreamClientConfiguration
    private let observer: UpstreamObserver?
    private let inbox = Lock(Inbox())
    private let exited = DispatchGroup()

    // Worker-thread only.
    private var waiting: [TransferTicket] = []
    private var active: [UnsafeMutableRawPointer: EasyTransfer] = [:]

    /// Creates the multi handle and starts the worker thread.
    init(configuration: UpstreamClientConfiguration, observer: UpstreamObserver?) throws(UpstreamError) {
        guard CurlGlobal.initialized, let multi = curl_multi_init() else {
            throw .transferFailed(curlCode: Int(CURLE_FAILED_INIT.rawValue))
        }
        self.multi = multi
        self.configuration = configuration
        self.observer = observer
        exited.enter()
        let thread = Thread { [self] in self.run() }
        thread.name = "rowstream-upstream"
        thread.start()
    }

    /// Queues a transfer; fails it with `.shutdown` if the engine is stopping.
    func submit(_ ticket: TransferTicket) {
        let accepted = inbox.withLock { inbox in
            guard !inbox.shuttingDown else { return false }
            inbox.submitted.append(ticket)
            return true
        }
        if accepted { curl_multi_wakeup(multi) } else { ticket.fetch.resume(returning: .failure(.shutdown)) }
    }

    /// Tells the worker that some ticket's cancel flag was raised.
    func wakeForCancellation() {
        let running = inbox.withLock { inbox in
            inbox.cancelsPending = true
            return !inbox.shuttingDown
        }
        if running { curl_multi_wakeup(multi) }
    }

    /// Stops the worker: in-flight and queued transfers fail with `.shutdown`. Returns once the
    /// worker thread has exited. Idempotent.
    /// - Important: never call from the worker thread (e.g. from an observer callback).
    func shutdown() {
        let first = inbox.withLock { inbox in
            defer { inbox.shuttingDown = true }
            return !inbox.shuttingDown
        }
        if first { curl_multi_wakeup(multi) }
        exited.wait()
    }

    // MARK: Worker thread

    private func run() {
        while true {
            let (submitted, cancelsPending, stopping) = inbox.withLock { inbox in
                defer { inbox.submitted = []; inbox.cancelsPending = false }
                return (inbox.submitted, inbox.cancelsPending, inbox.shuttingDown)
            }
            waiting.append(contentsOf: submitted)
            if stopping { break }
            if cancelsPending || !submitted.isEmpty { abortCancelled() }
            startWaiting()
            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            // A finished transfer frees a slot: a queued one starts at once, not at the next wake-up (up to 1 s).
            if collectFinished(), !waiting.isEmpty { continue }
            var ready: Int32 = 0
            _ = curl_multi_poll(multi, nil, 0, 1000, &ready)
        }
        abortAll()
        curl_multi_cleanup(multi)
        exited.leave()
    }

    /// Fails every ticket whose task was cancelled, removing running ones from the multi handle.
    private func abortCancelled() {
        waiting.removeAll { ticket in
            guard ticket.isCancelRequested else { return false }
            ticket.fetch.resume(returning: .failure(.cancelled))
            return true
        }
        for (handle, transfer) in active where transfer.ticket.isCancelRequested {
            remove(handle)?.finish(.failure(.cancelled), observer: observer)
        }
    }

    /// Starts queued transfers while there is room.
    private func startWaiting() {
        while active.count < max(1, configuration.maxConcurrentTransfers), !waiting.isEmpty {
            let ticket = waiting.removeFirst()
            do {
                let transfer = try EasyTransfer(ticket: ticket, configuration: configuration)
                let code = curl_multi_add_handle(multi, transfer.handle)
                guard code == CURLM_OK else {
                    ticket.fetch.resume(returning: .failure(.transferFailed(curlCode: Int(CURLE_FAILED_INIT.rawValue))))
                    continue
                }
                active[transfer.handle] = transfer
            } catch {
                ticket.fetch.resume(returning: .failure(error))
            }
        }
    }

    /// Ends every completed transfer (each resumes its own fetch with its response); true when any completed.
    private func collectFinished() -> Bool {
        var any = false
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            guard let transfer = remove(handle) else { continue }
            transfer.finish(code: code, observer: observer)
            any = true
        }
        return any
    }

    /// Takes a running transfer out of the multi handle and the table (its easy handle is freed when it is let go).
    private func remove(_ handle: UnsafeMutableRawPointer) -> EasyTransfer? {
        guard let transfer = active.removeValue(forKey: handle) else { return nil }
        _ = curl_multi_remove_handle(multi, handle)
        return transfer
    }

    /// Fails everything still queued or running with `.shutdown`.
    private func abortAll() {
        for handle in Array(active.keys) { remove(handle)?.finish(.failure(.shutdown), observer: observer) }
        for ticket in waiting { ticket.fetch.resume(returning: .failure(.shutdown)) }
        waiting.removeAll()
        let late = inbox.withLock { inbox in
            defer { inbox.submitted = [] }
            return inbox.submitted
        }
        for ticket in late { ticket.fetch.resume(returning: .failure(.shutdown)) }
    }
}
