import Foundation

/// A live feed in a cluster (docs/SCALING.md, "Live tables across instances"): the lease, publishing as holder,
/// forwarding a POSTed refresh to the holder, and following the channel's log.
extension LiveFeed {
    /// Who refreshes, as this instance sees it now.
    enum Role {
        /// No cluster, or its channel is unreachable: this instance refreshes for its own viewers.
        case alone
        /// This instance holds the table's lease: it refreshes and publishes for the cluster.
        case holder(any LiveChannel)
        /// Another instance holds the lease.
        case follower(any LiveChannel)
    }

    /// How long a lease lasts unless renewed: three intervals (a holder renews it every interval), so a holder
    /// that died is replaced within about three intervals plus one (the next tick of an instance with viewers).
    var leaseDuration: Duration {
        max((table.live?.interval ?? .seconds(5)) * 3, .seconds(3))
    }

    /// Takes or renews the lease, unless there is no cluster or it is unreachable (or not followed yet).
    func role() async -> Role {
        guard let channel, channel.isAvailable, state.withLock({ $0.cluster.isJoined }) else { return .alone }
        do {
            let holds = try await channel.holdLease(owner, for: leaseDuration)
            state.withLock { $0.cluster.holdsLease = holds }
            if !holds { await handOverOwedAnswers(channel) }
            return holds ? .holder(channel) : .follower(channel)
        } catch {
            state.withLock { $0.cluster.holdsLease = false }
            return .alone
        }
    }

    /// Requests this instance took on as holder but no longer holds the lease for (it moved between a request and the
    /// refresh that would answer it): asked for again in the log, under the same ids, so the holder now answers them
    /// and each waiting POST gets its answer instead of the forward timeout's error.
    private func handOverOwedAnswers(_ channel: any LiveChannel) async {
        await askAgain(for: state.withLock { $0.cluster.takeOwedAnswers() }, on: channel)
    }

    /// Adds `requests` to the log again, under their ids (best effort), so that the lease holder answers them.
    private func askAgain(for requests: [String], on channel: any LiveChannel) async {
        for request in requests { try? await channel.requestRefresh(request) }
    }

    /// Nobody watches here: give the lease up, so that an instance with viewers takes it.
    func stepDown() async {
        guard let channel, state.withLock({ $0.cluster.holdsLease }) else { return }
        state.withLock { $0.cluster.holdsLease = false }
        try? await channel.releaseLease(owner)
        await handOverOwedAnswers(channel)
    }

    /// As holder: loads the head and publishes it once (if it changed, or a forwarded request waits for it); the
    /// viewers here get it, like everyone's, from the log. If the channel fails midway, the head is sent here alone.
    func runAsHolder(_ channel: any LiveChannel) async -> LiveSummary {
        let answers = state.withLock { $0.cluster.takeOwedAnswers() }
        // A slow upstream must not cost the lease: renewed every interval while the fetch lasts.
        let renewal = Task { [owner, leaseDuration] in
            while !Task.isCancelled {
                try? await Task.sleep(for: leaseDuration / 3)
                if !Task.isCancelled { _ = try? await channel.holdLease(owner, for: leaseDuration) }
            }
        }
        let loaded: LiveHeadRows
        do {
            defer { renewal.cancel() }
            loaded = try await loadHead()
        } catch {
            state.withLock { $0.cluster.owedAnswers += answers }
            return LiveSummary(error: error.message)
        }
        do {
            let current = try await channel.head()
            let base = current?.rows.rows ?? state.withLock { $0.head }
            if let current, current.rows == loaded, answers.isEmpty { return summary(from: base, to: loaded) }
            // Read back from the log (maybe before `publish` returns), it keeps the page this refresh put in the cache.
            state.withLock { $0.cluster.ownHead = loaded }
            guard try await channel.publish(loaded, answering: answers, owner: owner, base: current?.position) != nil else {
                // The lease moved, or another holder published first: its head is the cluster's.
                state.withLock { $0.cluster.holdsLease = false; $0.cluster.owedAnswers += answers }
                await handOverOwedAnswers(channel)
                return LiveSummary(viewers: viewerCount)
            }
            return summary(from: base, to: loaded)
        } catch {
            // The channel failed midway: the requests this refresh took on are owed again, not dropped, and asked for
            // again in the log under their ids (if the store answers now), so a publication answers them soon, ticker
            // or not; an answer that comes twice (the failed publish may have happened) is taken once.
            state.withLock { $0.cluster.owedAnswers += answers }
            noteRefreshedAlone()
            let summary = advance(to: loaded) ?? LiveSummary(viewers: viewerCount)
            await askAgain(for: answers, on: channel)
            return summary
        }
    }

    /// What a refresh from `base` to `new` changes (the answer of a POST), without sending anything.
    private func summary(from base: [LiveRow]?, to new: LiveHeadRows) -> LiveSummary {
        guard let base else { return LiveSummary(viewers: viewerCount, baseline: true) }
        return LiveSummary(diff: LiveDiff(old: base, new: new.rows, newIsWholeList: new.isWholeList), viewers: viewerCount)
    }

    /// As follower, for a POST: asks the holder to refresh and waits (bounded) for the head that answers it; the
    /// answer counts the changes it made here. The rate limit was applied here (per instance: docs/SCALING.md).
    func forward(_ channel: any LiveChannel) async -> LiveSummary {
        let request = UUID().uuidString
        let reply: LiveSummary? = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { $0.cluster.forwarded[request] = .init(continuation: continuation) }
                let asking = Task { [weak self] in
                    do {
                        try await channel.requestRefresh(request)
                        try await Task.sleep(for: channel.forwardTimeout)
                    } catch {}
                    self?.answer(request, with: nil)
                }
                let answered = state.withLock { state in
                    state.cluster.forwarded[request]?.asking = asking
                    return state.cluster.forwarded[request] == nil
                }
                if answered { asking.cancel() }
            }
        } onCancel: {
            self.answer(request, with: nil)
        }
        return reply ?? LiveSummary(viewers: viewerCount, error: "the refreshing instance did not answer in time")
    }

    /// Resumes the caller waiting for `request`'s answer, once, and stops asking.
    func answer(_ request: String, with summary: LiveSummary?) {
        guard let forwarded = state.withLock({ $0.cluster.forwarded.removeValue(forKey: request) }) else { return }
        forwarded.asking?.cancel()
        forwarded.continuation.resume(returning: summary)
    }

    /// Follows the channel's log until stopped: joins (reads the head), then applies every entry in order. When the
    /// channel fails, refreshes go alone (logged once) and it joins again after a pause.
    func follow(_ channel: any LiveChannel) async {
        var cursor: String?
        var joined = false
        while !Task.isCancelled {
            do {
                if !joined {
                    cursor = try await join(channel)
                    joined = true
                }
                for entry in try await channel.read(after: cursor) {
                    receive(entry)
                    cursor = entry.cursor
                }
            } catch {
                if Task.isCancelled { return }
                joined = false
                leave(because: error)
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
    }

    /// Reads the cluster's head. The first time, it becomes the head as sent unless a viewer's first batch set one.
    /// After refreshing alone, this instance keeps its own head (its viewers saw it; the cluster's may be older) and
    /// asks the holder for a fresh refresh, whose head re-syncs every instance. Otherwise (the log could not be read
    /// for a while: a lost connection, a Redis restart) the head is applied like a log entry: whatever was
    /// published meanwhile reaches the viewers. Returns where to read the log from.
    ///
    /// The log between the last entry read and the head is skipped, and with it any head that answered a POST this
    /// instance forwarded and still waits for: each such request is asked for again, under its id, so the holder's
    /// next publication answers it (correct whichever came first, the answer or the lost read; an answer that
    /// arrives twice is taken once).
    private func join(_ channel: any LiveChannel) async throws -> String? {
        let head = try await channel.head()
        let (wasAlone, refreshedAlone, isFirst, waiting) = state.withLock { state in
            defer {
                state.cluster.isJoined = true
                state.cluster.everJoined = true
                state.cluster.loggedAlone = false
                state.cluster.refreshedAlone = false
            }
            return (state.cluster.loggedAlone, state.cluster.refreshedAlone, !state.cluster.everJoined,
                    Array(state.cluster.forwarded.keys))
        }
        if let head, !isFirst, !refreshedAlone {
            _ = advance(to: head.rows, at: head.position)
        } else {
            state.withLock { state in
                if state.head == nil { state.head = head?.rows.rows }
                state.cluster.position = head?.position
            }
        }
        if refreshedAlone { try await channel.requestRefresh(UUID().uuidString) }
        for request in waiting { try await channel.requestRefresh(request) }
        if wasAlone { logger.log(.info, "live table \(table.name): refreshes are shared again (one refresher for the cluster)") }
        return head?.position.cursor
    }

    /// One entry of the log: a head is diffed and sent here and answers the requests it names; a refresh request is
    /// acted on by the holder, or by an instance with viewers that takes the lease for it (see `takeLease(for:)`).
    private func receive(_ entry: LiveLogEntry) {
        switch entry {
        case .head(let head, let answers):
            let summary = advance(to: head.rows, at: head.position) ?? LiveSummary(viewers: viewerCount)
            answers.forEach { answer($0, with: summary) }
        case .refreshRequest(let request, _):
            let holds = state.withLock { state in
                if state.cluster.holdsLease, !state.cluster.owedAnswers.contains(request) {
                    state.cluster.owedAnswers.append(request)
                }
                return state.cluster.holdsLease
            }
            if holds {
                // Unless a refresh that started meanwhile took the request on (it answers it): no fetch for nothing.
                Task { [weak self] in
                    guard let self, state.withLock({ $0.cluster.owedAnswers.contains(request) }) else { return }
                    _ = await refresh(isTicker: true)
                }
            } else if viewerCount > 0, let channel {
                Task { [weak self] in await self?.takeLease(for: request, on: channel) }
            }
        case .unreadable:
            break
        }
    }

    /// A refresh request reached this instance, which has viewers and does not hold the lease: nobody may (after a
    /// store outage or restart no instance does, and a table refreshed only by POST has no tick to take it), so it
    /// tries to take the lease and, if it gets it, refreshes as holder, answering the request. While another
    /// instance holds the lease this fails, and the holder answers.
    private func takeLease(for request: String, on channel: any LiveChannel) async {
        guard (try? await channel.holdLease(owner, for: leaseDuration)) == true else { return }
        let holds = state.withLock { state in
            guard state.cluster.isJoined, !state.stopped else { return false }
            state.cluster.holdsLease = true
            state.cluster.owedAnswers.append(request)
            return true
        }
        if holds { _ = await refresh(isTicker: true) } else { try? await channel.releaseLease(owner) }
    }

    /// The channel failed: refresh alone until it returns (logged once per change).
    private func leave(because error: any Error) {
        let log = state.withLock { state in
            defer { state.cluster.isJoined = false; state.cluster.holdsLease = false; state.cluster.loggedAlone = true }
            return !state.cluster.loggedAlone
        }
        if log {
            logger.log(.warning, "live table \(table.name): the shared store is unreachable (\(error)): "
                + "refreshing on this instance until it returns")
        }
    }

    /// This instance refreshed alone (counted; its head may now differ from the cluster's).
    func noteRefreshedAlone() {
        counters.aloneRefreshes.add(1, ordering: .relaxed)
        state.withLock { $0.cluster.refreshedAlone = true }
    }

    /// Whether this instance holds the table's lease (as of its last try), for `/metrics`.
    var holdsLease: Bool { state.withLock { $0.cluster.holdsLease } }

    /// Whether refreshes are shared through the cluster now, for `/metrics`.
    var isSharing: Bool { state.withLock { $0.cluster.isJoined } }
}
