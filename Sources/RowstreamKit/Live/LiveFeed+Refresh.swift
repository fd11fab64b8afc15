import Foundation

/// A live feed's refreshes as one single flight per table (``RefreshStateMachine``, under the feed's lock): callers
/// join or queue, a run nobody waits for is cancelled, and each run refreshes alone or as the cluster's member
/// (LiveFeed+Cluster.swift).
extension LiveFeed {
    /// Re-fetches the head, diffs it and sends the changes to every viewer, as one single flight per table
    /// (``RefreshStateMachine``): joins the queued follow-up if there is one, else starts a fetch or queues one
    /// behind the running fetch (taking a token of the table's ``RefreshLimit`` unless `isTicker`). A caller whose
    /// task is cancelled (its client went away) stops waiting; a fetch nobody waits for any more is cancelled.
    ///
    /// In a cluster a POST that would start work takes its token from the table's one bucket for the whole cluster
    /// first (``LiveChannel/takeRefreshToken(_:)``); when the store cannot answer, this instance's own bucket decides.
    func refresh(isTicker: Bool = false) async -> RefreshOutcome {
        var hasToken = false
        if !isTicker, let channel, let limit = table.live?.limit, !state.withLock({ $0.machine.wouldJoin }) {
            do {
                guard channel.isAvailable else { throw LiveChannelWithoutBucket() }
                if let wait = try await channel.takeRefreshToken(limit) {
                    counters.clusterRefusals.add(1, ordering: .relaxed)
                    return .refused(retryAfter: wait)
                }
                hasToken = true
            } catch {
                counters.localLimitFallbacks.add(1, ordering: .relaxed)
            }
        }
        let waiter = state.withLock { state in
            state.lastWaiter += 1
            let waiter = RefreshStateMachine.WaiterID(state.lastWaiter)
            state.waiters[waiter] = .arriving
            return waiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in ask(waiter, isTicker: isTicker, hasToken: hasToken, continuation) }
        } onCancel: {
            leave(waiter)
        }
    }

    private func ask(
        _ waiter: RefreshStateMachine.WaiterID, isTicker: Bool, hasToken: Bool,
        _ continuation: CheckedContinuation<RefreshOutcome, Never>
    ) {
        let refused: RefreshOutcome? = state.withLock { state in
            guard case .arriving = state.waiters[waiter], !state.stopped else {
                state.waiters[waiter] = nil
                return .abandoned
            }
            switch state.machine.request(waiter, at: .now, isTicker: isTicker, hasToken: hasToken) {
            case .refuse(let wait):
                state.waiters[waiter] = nil
                return .refused(retryAfter: wait)
            case .start(let run):
                state.waiters[waiter] = .waiting(continuation)
                state.runs[run] = launch(run)
                return nil
            default:
                state.waiters[waiter] = .waiting(continuation)
                return nil
            }
        }
        if let refused { continuation.resume(returning: refused) }
    }

    private func leave(_ waiter: RefreshStateMachine.WaiterID) {
        let (continuation, cancel): (CheckedContinuation<RefreshOutcome, Never>?, Task<Void, Never>?) = state.withLock { state in
            switch state.waiters[waiter] {
            case .arriving?:
                state.waiters[waiter] = .left
                return (nil, nil)
            case .waiting(let continuation)?:
                state.waiters[waiter] = nil
                guard case .cancel(let run) = state.machine.leave(waiter) else { return (continuation, nil) }
                return (continuation, state.runs[run])
            case .left?, nil:
                return (nil, nil)
            }
        }
        cancel?.cancel()
        continuation?.resume(returning: .abandoned)
    }

    /// The task of one refresh. Created under the lock (creating a task only enqueues it), so that its handle is
    /// stored before it can finish.
    func launch(_ run: RefreshStateMachine.RunID) -> Task<Void, Never> {
        Task { [weak self] in
            guard let self else { return }
            let summary = await self.run()
            self.finished(run, summary)
        }
    }

    private func finished(_ run: RefreshStateMachine.RunID, _ summary: LiveSummary) {
        let continuations = state.withLock { state -> [CheckedContinuation<RefreshOutcome, Never>] in
            state.runs[run] = nil
            guard case .complete(let waiters, let next) = state.machine.finished(run) else { return [] }
            if let next { state.runs[next] = launch(next) }
            return waiters.compactMap { waiter in
                guard case .waiting(let continuation)? = state.waiters.removeValue(forKey: waiter) else { return nil }
                return continuation
            }
        }
        continuations.forEach { $0.resume(returning: .done(summary)) }
    }

    /// One refresh: by this instance alone, or in a cluster by the lease holder (which publishes the head) or on
    /// behalf of a POST by asking the holder (``LiveFeed+Cluster``).
    func run() async -> LiveSummary {
        switch await role() {
        case .alone: return await runAlone()
        case .holder(let channel): return await runAsHolder(channel)
        case .follower(let channel): return await forward(channel)
        }
    }

    /// Loads the head and sends its changes to this instance's viewers (a single process; a cluster whose channel
    /// is unreachable).
    func runAlone() async -> LiveSummary {
        let loaded: LiveHeadRows
        do {
            loaded = try await loadHead()
        } catch {
            return LiveSummary(error: error.message)
        }
        if channel != nil { noteRefreshedAlone() }
        return advance(to: loaded) ?? LiveSummary(viewers: viewerCount)
    }
}
