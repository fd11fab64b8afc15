import EventLoop

/// One socket to Redis on the client's event loop: connects without blocking, writes commands (pipelined: any
/// number in flight), matches replies to them in order, fails them on a timeout or a broken connection, and
/// connects again by itself (at once after a connection that worked, else after a jittered backoff) until
/// `close`. A subscriber connection hands every reply to `onReply` instead of to a waiting command. The commands
/// waiting for replies are a ``RedisReplyQueue``, the bytes waiting for the socket a ``RedisOutput``.
///
/// In five files, one concept each: this one (state, commands, close), `+Connecting` (an attempt and its setup),
/// `+Events` (the socket's events: the connect finishing, replies read and handed out), `+Writing` (flushing the
/// output) and `+Failing` (timeouts, failures, reconnects and the health they change). The state is internal for
/// those extensions only; nothing else in the module touches it.
///
/// Thread rules: loop-confined. Every method, property and callback runs on the loop thread of `loop` (other
/// threads reach it through `loop.execute`); that is why it is `@unchecked Sendable`.
final class RedisConnection: EventHandler, @unchecked Sendable {
    typealias Completion = RedisReplyQueue.Completion

    enum State {
        /// Not connected; the next attempt is due at `retryAt`.
        case idle(retryAt: ContinuousClock.Instant)
        case connecting(fd: Int32, deadline: ContinuousClock.Instant)
        case connected(fd: Int32)
        case closed
    }

    let loop: EventLoop
    let configuration: RedisConfiguration
    let counters: RedisCounters
    /// Called whenever `isReady` or `hasFailedSinceReady` may have changed.
    var onHealthChange: (() -> Void)?
    /// Subscriber connections: every reply no command waits for (pushes), and each new attempt (to queue its
    /// SUBSCRIBE again) and each lost connection.
    var onReply: ((RESPValue) -> Void)?
    var onAttempt: (() -> Void)?
    var onLost: (() -> Void)?
    /// Called once, by `close`.
    var onClose: (() -> Void)?

    var state: State
    var failures = 0
    var parser: RESPParser
    var output = RedisOutput()
    var watchingWritable = false
    var flushScheduled = false
    /// Commands written, or sent while connecting, awaiting their replies.
    var replies = RedisReplyQueue()
    /// AUTH/SELECT replies still awaited on the current connection: it is ready only after them.
    var setupRemaining = 0
    var isReady = false
    /// Whether an attempt failed since the connection was last ready (or since it was made): with `isReady`, what
    /// the client's health is made of.
    var hasFailedSinceReady = false
    /// When the current connection became ready: one that breaks sooner is retried after the backoff.
    var readySince: ContinuousClock.Instant?

    init(loop: EventLoop, configuration: RedisConfiguration, counters: RedisCounters) {
        self.loop = loop
        self.configuration = configuration
        self.counters = counters
        parser = RESPParser(limits: configuration.limits)
        state = .idle(retryAt: .now)
    }

    var isConnecting: Bool {
        if case .connecting = state { return true }
        if case .connected = state { return !isReady }
        return false
    }

    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// Commands written or queued and not yet answered.
    var inFlightCount: Int { replies.count }

    // MARK: Commands

    /// Queues a command (written at once when connected, on connecting otherwise). Fails it at once with
    /// ``RedisError/unavailable`` while the connection waits to reconnect, ``RedisError/shutdown`` once closed.
    func enqueue(_ arguments: [RedisArgument], timeout: Duration?, request: RedisRequest?,
                 _ complete: @escaping Completion) {
        loop.assertInLoop()
        let entry = RedisReplyQueue.Entry(deadline: .now + (timeout ?? configuration.commandTimeout), request: request,
                                          complete: complete)
        switch state {
        case .idle: complete(.failure(.unavailable))
        case .closed: complete(.failure(.shutdown))
        case .connecting:
            replies.holdUnsent(arguments, entry)
        case .connected:
            output.append(arguments)
            replies.awaitReply(entry)
            scheduleFlush()
        }
    }

    /// Queues `commands` one after the other (nothing between them: a `MULTI` ... `EXEC` stays whole) and hands
    /// all their results to `complete` once the last is in.
    func enqueue(_ commands: [[RedisArgument]], timeout: Duration?, request: RedisRequest?,
                 _ complete: @escaping ([Result<RESPValue, RedisError>]) -> Void) {
        guard commands.count > 1 else {
            guard let command = commands.first else { return complete([]) }
            return enqueue(command, timeout: timeout, request: request) { complete([$0]) }
        }
        let results = RedisBatchResults(count: commands.count, complete)
        for (index, command) in commands.enumerated() {
            enqueue(command, timeout: timeout, request: request) { results.set(index, $0) }
        }
    }

    /// Fails `request`'s commands with ``RedisError/cancelled`` where they wait here: dropped if not yet written,
    /// else their replies are discarded when they come (the connection stays in step).
    func cancel(_ request: RedisRequest) {
        loop.assertInLoop()
        for complete in replies.cancel(request) { complete(.failure(.cancelled)) }
    }

    /// Writes a command whose replies go to `onReply` (SUBSCRIBE): no reply is awaited.
    func write(_ arguments: [RedisArgument]) {
        loop.assertInLoop()
        guard case .connected = state else {
            if case .connecting = state { output.append(arguments) }
            return
        }
        output.append(arguments)
        scheduleFlush()
    }

    /// Closes for good, failing what is in flight with ``RedisError/shutdown``.
    func close() {
        loop.assertInLoop()
        tearDown(failing: .shutdown)
        state = .closed
        setReady(false)
        let closed = onClose
        // The callbacks may hold this connection (a subscription's do): let go of them, or neither is freed.
        onClose = nil
        onAttempt = nil
        onReply = nil
        onLost = nil
        onHealthChange = nil
        closed?()
    }
}
