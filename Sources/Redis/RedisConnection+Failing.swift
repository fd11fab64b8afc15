import EventLoop
import Glibc

/// Timeouts, failures and reconnects, and the health (`isReady`, `hasFailedSinceReady`) they change. Loop-confined,
/// as ``RedisConnection``.
extension RedisConnection {
    /// The client calls this every few milliseconds: starts a due attempt, times out a connect, fails overdue commands.
    func tick(now: ContinuousClock.Instant) {
        loop.assertInLoop()
        switch state {
        case .idle(let retryAt) where retryAt <= now:
            startAttempt()
        case .connecting(_, let deadline) where deadline <= now:
            fail(.connectFailed("connect timed out"), reconnectAtOnce: false)
        case .connecting:
            // Not written yet: an overdue one is simply dropped (it never reached Redis).
            let overdue = replies.takeOverdueUnsent(now: now)
            guard !overdue.isEmpty else { return }
            counters.commandsTimedOut.add(overdue.count, ordering: .relaxed)
            for entry in overdue { entry.complete?(.failure(.timedOut)) }
        case .connected:
            if replies.hasOverdueWritten(now: now) { timeOut(now: now) }
        default:
            break
        }
    }

    private func timeOut(now: ContinuousClock.Instant) {
        let waiting = replies.takeWritten()
        tearDown(failing: .connectionLost)
        counters.connectionsLost.add(1, ordering: .relaxed)
        counters.commandsTimedOut.add(waiting.count { $0.deadline <= now }, ordering: .relaxed)
        for entry in waiting { entry.complete?(.failure(entry.deadline <= now ? .timedOut : .connectionLost)) }
        // The replies can no longer be matched: a new connection, at once (Redis may be slow, not gone).
        onLost?()
        startAttempt()
    }

    /// Closes the socket, fails every waiting command with `error`, and connects again: at once after a
    /// connection that was up for a while (a server that accepts and at once closes, e.g. at `maxclients`, gets
    /// the growing backoff, not a busy loop), else after the backoff.
    func fail(_ error: RedisError, reconnectAtOnce: Bool) {
        let readyBefore = isReady
        let livedLong = isReady && readySince.map { ContinuousClock.now - $0 >= .seconds(1) } ?? false
        if livedLong { failures = 0 }
        let wasConnected: Bool
        if case .connected = state { wasConnected = true } else { wasConnected = false }
        tearDown(failing: error)
        if wasConnected && readyBefore { counters.connectionsLost.add(1, ordering: .relaxed) }
        if !readyBefore { counters.connectFailures.add(1, ordering: .relaxed) }
        if wasConnected { onLost?() }
        if reconnectAtOnce && livedLong {
            startAttempt()
        } else {
            scheduleRetry(after: error)
        }
    }

    private func scheduleRetry(after error: RedisError) {
        failures += 1
        let delay = configuration.reconnectBackoff.delay(afterFailures: failures, random: Double.random(in: 0...1))
        state = .idle(retryAt: .now + delay)
        setReady(false)
        hasFailedSinceReady = true
        onHealthChange?()
    }

    func tearDown(failing error: RedisError) {
        switch state {
        case .connecting(let fd, _), .connected(let fd):
            loop.deregister(fd)
            Glibc.close(fd)
        default:
            break
        }
        if case .closed = state {} else { state = .idle(retryAt: .now) }
        let waiting = replies.takeAll()
        output.reset()
        setupRemaining = 0
        for entry in waiting { entry.complete?(.failure(error)) }
        setReady(false)
    }

    func setReady(_ ready: Bool) {
        guard ready != isReady else { return }
        isReady = ready
        readySince = ready ? .now : nil
        if ready {
            hasFailedSinceReady = false
            counters.connectionsOpened.add(1, ordering: .relaxed)
        }
        onHealthChange?()
    }
}
