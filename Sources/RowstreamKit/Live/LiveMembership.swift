import Synchronization

/// A live feed's place in a cluster (``LiveChannel``), kept under the feed's lock: where its head stands in the
/// cluster's log, whether it holds the table's lease, whether it shares or refreshes alone, the refresh requests it
/// owes answers to (as holder) and the ones it waits for (forwarded). A value; the feed serialises access.
struct LiveMembership {
    /// The position of the last head read from the log (nil: none yet).
    var position: LiveHeadPosition?
    /// The head this instance loaded as holder, set before it publishes it: its page cache has the page that head
    /// came from (the refresh put it there), so the next head from the log drops nothing if it has these rows.
    /// Cleared by every head read from the log.
    var ownHead: LiveHeadRows?
    /// Whether this instance held the lease at its last try.
    var holdsLease = false
    /// Whether the log is being followed now (joined and the last read worked). Refreshes are shared only then.
    var isJoined = false
    /// Whether the log was ever followed (the first join adopts the cluster's head).
    var everJoined = false
    /// Whether the last change of mode was logged as "alone" (so each change is logged once).
    var loggedAlone = false
    /// This instance refreshed alone since it last followed the log: its head may differ from the cluster's.
    var refreshedAlone = false
    /// Requests forwarded to this instance as holder, answered by its next publication.
    var owedAnswers: [String] = []
    /// This instance's forwarded requests: the caller waiting for each answer, and the task that asks and gives up
    /// after a while (cancelled once answered).
    var forwarded: [String: Forwarded] = [:]

    struct Forwarded {
        let continuation: CheckedContinuation<LiveSummary?, Never>
        var asking: Task<Void, Never>?
    }

    mutating func takeOwedAnswers() -> [String] {
        defer { owedAnswers = [] }
        return owedAnswers
    }

    mutating func takeForwarded() -> [Forwarded] {
        defer { forwarded = [:] }
        return Array(forwarded.values)
    }
}

/// A live feed's cluster counters, for `/metrics`. Thread-safe: atomics.
final class LiveCounters: Sendable {
    /// Refreshes this instance ran alone while the cluster's channel was unreachable.
    let aloneRefreshes = Atomic<Int>(0)
    /// Heads read from the log after a gap (missed entries, a new epoch): re-synced by diffing the whole head.
    let resyncs = Atomic<Int>(0)
    /// POSTed refreshes the cluster's one bucket refused (429).
    let clusterRefusals = Atomic<Int>(0)
    /// POSTed refreshes this instance's own bucket decided because the cluster's could not answer (Redis down).
    let localLimitFallbacks = Atomic<Int>(0)
}
