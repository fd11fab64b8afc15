/// The decisions of a live table's refreshes as a pure value (single flight plus a rate limit): whether a request
/// starts an upstream fetch, joins one, or is refused; which fetch runs next; which work nobody waits for any more.
/// No I/O, no clock reads (the caller passes the time), no results.
///
/// At most one refresh runs, and at most one more is queued behind it. A request while nothing runs starts a fetch.
/// A request while one runs cannot share that one's result (its fetch began before the request, so it may miss the
/// change the request announces): it joins the single queued follow-up, creating it if there is none. So any
/// number of requests at once cost at most two fetches, and every answer reflects the upstream as it was when its
/// request arrived, or later. A request that creates work (starts a fetch or the follow-up) takes a token from the
/// ``RefreshLimit`` bucket; joining costs none; the ticker's requests never take one and are never refused.
///
/// Waiters may leave (their client went away): a queued follow-up left by all its waiters is dropped (and its token
/// given back: it fetched nothing), and a running fetch left by all is to be cancelled (it stays the running one
/// until the owner reports it finished, so two fetches never overlap; its token stays spent).
///
/// Each mutating method returns an ``Action``; the owner keeps the machine behind one lock, decides under it, and
/// acts (starts and cancels tasks, resumes waiters) outside it.
///
/// - Important: a value type, not thread-safe by itself; the owner serialises access (one `Lock`).
struct RefreshStateMachine: Sendable {
    /// One refresh (one upstream fetch of the head).
    struct RunID: Hashable, Sendable {
        let value: UInt64
    }

    /// One caller waiting for a refresh's result; the owner numbers them.
    struct WaiterID: Hashable, Sendable {
        let value: UInt64
        init(_ value: UInt64) { self.value = value }
    }

    /// What the owner does after a decision.
    enum Action: Equatable, Sendable {
        /// Nothing to do.
        case none
        /// Start fetching for `run` now; the requesting waiter waits for it.
        case start(RunID)
        /// The requesting waiter waits for `run`, which is running or queued: nothing to start now.
        case wait(RunID)
        /// Refused by the rate limit: answer at once, and ask to come back after this long.
        case refuse(retryAfter: Duration)
        /// Cancel `run`'s fetch: everyone waiting for it left. Its result still arrives (as `finished`).
        case cancel(RunID)
        /// `run` is done: hand its result to `waiters`, then start `next` if there is one.
        case complete(waiters: [WaiterID], next: RunID?)
    }

    private struct Run: Sendable {
        let id: RunID
        var waiters: [WaiterID]
        /// It took a token (a client's request created it, not the ticker's).
        let tookToken: Bool
    }

    private var running: Run?
    private var queued: Run?
    private var bucket: RefreshBucket
    private var lastRun: UInt64 = 0

    init(limit: RefreshLimit) {
        bucket = RefreshBucket(limit: limit)
    }

    /// `waiter` asks for a refresh at `now`; `isTicker`: the interval ticker (no rate limit); `hasToken`: it took a
    /// token of the cluster's bucket already (``LiveChannel/takeRefreshToken(_:)``), so this bucket takes none.
    mutating func request(_ waiter: WaiterID, at now: ContinuousClock.Instant, isTicker: Bool = false,
                          hasToken: Bool = false) -> Action {
        if var queued {
            queued.waiters.append(waiter)
            self.queued = queued
            return .wait(queued.id)
        }
        let takesToken = !isTicker && !hasToken
        if takesToken, let wait = bucket.take(at: now) { return .refuse(retryAfter: wait) }
        let run = newRun(waiter, tookToken: takesToken)
        guard running != nil else {
            running = run
            return .start(run.id)
        }
        queued = run
        return .wait(run.id)
    }

    /// `waiter` no longer waits (its client went away). Cancels a running fetch nobody waits for; drops a queued one.
    mutating func leave(_ waiter: WaiterID) -> Action {
        if var queued, let index = queued.waiters.firstIndex(of: waiter) {
            queued.waiters.remove(at: index)
            self.queued = queued.waiters.isEmpty ? nil : queued
            // Dropped before it fetched anything: its token goes back (callers that hang up cost only real work).
            if queued.waiters.isEmpty, queued.tookToken { bucket.refund() }
            return .none
        }
        guard var running, let index = running.waiters.firstIndex(of: waiter) else { return .none }
        running.waiters.remove(at: index)
        self.running = running
        // Nobody waits: cancel it, but it stays the running one until it reports `finished` (no overlap).
        return running.waiters.isEmpty ? .cancel(running.id) : .none
    }

    /// `run`'s fetch ended (done, failed or cancelled): its waiters get the result and the follow-up starts.
    mutating func finished(_ run: RunID) -> Action {
        guard let finished = running, finished.id == run else { return .none }
        running = queued
        queued = nil
        return .complete(waiters: finished.waiters, next: running?.id)
    }

    /// Everything stops (the server shuts down): every waiter, running and queued, to be resumed.
    mutating func stop() -> (waiters: [WaiterID], cancel: RunID?) {
        defer { running = nil; queued = nil }
        return ((running?.waiters ?? []) + (queued?.waiters ?? []), running?.id)
    }

    /// Whether a request now would join the queued follow-up (and so take no token).
    var wouldJoin: Bool { queued != nil }

    /// Whether a fetch is running or queued (for tests and metrics).
    var isIdle: Bool { running == nil && queued == nil }

    private mutating func newRun(_ waiter: WaiterID, tookToken: Bool) -> Run {
        lastRun += 1
        return Run(id: RunID(value: lastRun), waiters: [waiter], tookToken: tookToken)
    }
}
