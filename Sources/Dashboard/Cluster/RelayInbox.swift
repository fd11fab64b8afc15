import Locking
import RowstreamKit
import Synchronization

/// What ``RedisDemandRelay`` keeps between its listener and its callers: the forwards waiting for their answers, by
/// request id, and the server's handler of demands for this instance's sessions.
///
/// The handler is kept in a struct (``Answerer``), not as a bare function value in the lock: a function value read
/// through the generic lock's `inout` is converted to the lock's generic form and back on every access, and each
/// conversion wrapped the stored function in one more thunk. Every demand this instance answered made every later
/// one walk a longer chain: on 3 instances under `Scripts/soak --instances 3`, 65% of an instance's CPU after two
/// minutes, and the batches a second fell to a third. A struct's stored function has one form: nothing is wrapped.
///
/// Thread-safe: one lock each.
final class RelayInbox: Sendable {
    /// The server's handler, as stored (see above).
    struct Answerer: Sendable {
        let answer: @Sendable (RelayedDemand) -> RelayedAnswer
    }

    private struct Waiting {
        let continuation: CheckedContinuation<RelayedAnswer, Never>
        var timer: Task<Void, Never>?
    }

    let unverified = Atomic<Int>(0)
    private let waiting = Lock<[UInt64: Waiting]>([:])
    private let answerer = Lock<Answerer?>(nil)

    var handler: (@Sendable (RelayedDemand) -> RelayedAnswer)? {
        get { answerer.withLock { $0 }?.answer }
        set { answerer.withLock { $0 = newValue.map(Answerer.init) } }
    }

    func wait(_ request: UInt64, _ continuation: CheckedContinuation<RelayedAnswer, Never>) {
        waiting.withLock { $0[request] = Waiting(continuation: continuation) }
    }

    /// Lets `request`'s answer cancel its timer (or cancels it now if it was answered meanwhile).
    func attach(_ timer: Task<Void, Never>, to request: UInt64) {
        let answered = waiting.withLock { waiting -> Bool in
            guard waiting[request] != nil else { return true }
            waiting[request]?.timer = timer
            return false
        }
        if answered { timer.cancel() }
    }

    /// Answers every forward still waiting `ended` (the relay stops).
    func endAll() {
        let all = waiting.withLock { waiting in
            defer { waiting.removeAll() }
            return Array(waiting.values)
        }
        for entry in all {
            entry.timer?.cancel()
            entry.continuation.resume(returning: .ended)
        }
    }

    /// Answers `request` once (later answers, and answers to unknown ids, do nothing).
    func resolve(_ request: UInt64, with answer: RelayedAnswer) {
        guard let entry = waiting.withLock({ $0.removeValue(forKey: request) }) else { return }
        entry.timer?.cancel()
        entry.continuation.resume(returning: answer)
    }
}
