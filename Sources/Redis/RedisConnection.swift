import CSystem
import EventLoop
import Glibc

/// One socket to Redis on the client's event loop: connects without blocking, writes commands (pipelined: any
/// number in flight), matches replies to them in order, fails them on a timeout or a broken connection, and
/// connects again by itself (at once after a connection that worked, else after a jittered backoff) until
/// `close`. A subscriber connection hands every reply to `onReply` instead of to a waiting command. The commands
/// waiting for replies are a ``RedisReplyQueue``, the bytes waiting for the socket a ``RedisOutput``.
///
/// Thread rules: loop-confined. Every method, property and callback runs on the loop thread of `loop` (other
/// threads reach it through `loop.execute`); that is why it is `@unchecked Sendable`.
final class RedisConnection: EventHandler, @unchecked Sendable {
    typealias Completion = RedisReplyQueue.Completion

    private enum State {
        /// Not connected; the next attempt is due at `retryAt`.
        case idle(retryAt: ContinuousClock.Instant)
        case connecting(fd: Int32, deadline: ContinuousClock.Instant)
        case connected(fd: Int32)
        case closed
    }

    private let loop: EventLoop
    private let configuration: RedisConfiguration
    private let counters: RedisCounters
    /// Called whenever `isReady` or `hasFailedSinceReady` may have changed.
    var onHealthChange: (() -> Void)?
    /// Subscriber connections: every reply no command waits for (pushes), and each new attempt (to queue its
    /// SUBSCRIBE again) and each lost connection.
    var onReply: ((RESPValue) -> Void)?
    var onAttempt: (() -> Void)?
    var onLost: (() -> Void)?
    /// Called once, by `close`.
    var onClose: (() -> Void)?

    private var state: State
    private var failures = 0
    private var parser: RESPParser
    private var output = RedisOutput()
    private var watchingWritable = false
    private var flushScheduled = false
    /// Commands written, or sent while connecting, awaiting their replies.
    private var replies = RedisReplyQueue()
    /// AUTH/SELECT replies still awaited on the current connection: it is ready only after them.
    private var setupRemaining = 0
    private(set) var isReady = false
    /// Whether an attempt failed since the connection was last ready (or since it was made): with `isReady`, what
    /// the client's health is made of.
    private(set) var hasFailedSinceReady = false
    /// When the current connection became ready: one that breaks sooner is retried after the backoff.
    private var readySince: ContinuousClock.Instant?

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

    // MARK: Timers (the client calls `tick` every few milliseconds)

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

    // MARK: Connecting

    /// Starts connecting now, if idle.
    func start() {
        loop.assertInLoop()
        if case .idle = state { startAttempt() }
    }

    private func startAttempt() {
        parser = RESPParser(limits: configuration.limits)
        output.reset()
        setupRemaining = 0
        if let password = configuration.password { setup(["AUTH", RedisArgument(password)]) }
        if configuration.database != 0 { setup(["SELECT", RedisArgument(configuration.database)]) }
        let started: RedisSocket.Started
        do {
            started = try RedisSocket.connect(to: configuration.address)
        } catch {
            fail(error, reconnectAtOnce: false)
            return
        }
        switch started {
        case .connected(let fd):
            guard register(fd, events: csystem_EPOLLIN | csystem_EPOLLRDHUP) else { return }
            state = .connected(fd: fd)
            connected()
        case .inProgress(let fd):
            guard register(fd, events: csystem_EPOLLOUT) else { return }
            state = .connecting(fd: fd, deadline: .now + configuration.connectTimeout)
        }
        onAttempt?()
    }

    private func register(_ fd: Int32, events: UInt32) -> Bool {
        do {
            try loop.register(fd, self, events: events)
            return true
        } catch {
            Glibc.close(fd)
            fail(.connectFailed(error.description), reconnectAtOnce: false)
            return false
        }
    }

    private func setup(_ arguments: [RedisArgument]) {
        setupRemaining += 1
        output.append(arguments)
        replies.awaitReply(RedisReplyQueue.Entry(deadline: .now + configuration.connectTimeout, request: nil) { [unowned self] result in
            if case .failure(let error) = result {
                // A wrong password or database: not worth reconnecting at once.
                if case .connected = state { fail(.connectFailed(error.description), reconnectAtOnce: false) }
                return
            }
            setupRemaining -= 1
            if setupRemaining == 0 { setReady(true) }
        })
    }

    private func connected() {
        guard case .connected(let fd) = state else { return }
        watchingWritable = false
        loop.modify(fd, events: csystem_EPOLLIN | csystem_EPOLLRDHUP)
        for (arguments, entry) in replies.takeUnsent() {
            output.append(arguments)
            replies.awaitReply(entry)
        }
        if setupRemaining == 0 { setReady(true) }
        flush()
    }

    // MARK: Events

    func handleEvents(_ events: UInt32) {
        loop.assertInLoop()
        switch state {
        case .connecting(let fd, _):
            if let why = RedisSocket.finish(fd) {
                fail(.connectFailed(why), reconnectAtOnce: false)
            } else {
                state = .connected(fd: fd)
                connected()
            }
        case .connected(let fd):
            if events & csystem_EPOLLOUT != 0 { flush() }
            guard case .connected(let current) = state, current == fd else { return }  // the flush failed
            if events & (csystem_EPOLLIN | csystem_EPOLLRDHUP | csystem_EPOLLHUP | csystem_EPOLLERR) != 0 {
                readAvailable(fd)
            }
        default:
            break
        }
    }

    private func readAvailable(_ fd: Int32) {
        for _ in 0..<16 {
            let count = loop.readBuffer.withUnsafeMutableBytes { buffer -> Int in
                let count = recv(fd, buffer.baseAddress, buffer.count, 0)
                if count > 0 { parser.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) }
                return count
            }
            if count == 0 { return fail(.connectionLost, reconnectAtOnce: true) }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { return }
                return fail(.connectionLost, reconnectAtOnce: true)
            }
            do {
                while let reply = try parser.next() {
                    deliver(reply)
                    guard case .connected = state else { return }
                }
            } catch {
                // The reply at fault is the oldest command's; the others were only behind it on this connection.
                replies.takeOldest()?.complete?(.failure(error))
                return fail(.connectionLost, reconnectAtOnce: false)
            }
            if count < loop.readBuffer.count { return }
        }
    }

    private func deliver(_ reply: RESPValue) {
        // A RESP3 push is out of band (never a command's reply); without a waiting command, a RESP2 reply is a
        // subscriber's message.
        if case .push = reply { return onReply?(reply) ?? () }
        guard let entry = replies.takeOldest() else {
            onReply?(reply)
            return
        }
        if case .error(let message) = reply {
            entry.complete?(.failure(.server(message)))
        } else {
            entry.complete?(.success(reply))
        }
    }

    // MARK: Writing

    private func scheduleFlush() {
        guard case .connected = state, !flushScheduled else { return }
        flushScheduled = true
        // Later in this loop turn: commands sent together leave in one write.
        loop.execute { [self] in
            flushScheduled = false
            flush()
        }
    }

    private func flush() {
        guard case .connected(let fd) = state else { return }
        switch output.send(to: fd) {
        case .all:
            break
        case .wouldBlock:
            if !watchingWritable {
                watchingWritable = true
                loop.modify(fd, events: csystem_EPOLLIN | csystem_EPOLLRDHUP | csystem_EPOLLOUT)
            }
            return
        case .failed:
            return fail(.connectionLost, reconnectAtOnce: true)
        }
        if watchingWritable {
            watchingWritable = false
            loop.modify(fd, events: csystem_EPOLLIN | csystem_EPOLLRDHUP)
        }
    }

    // MARK: Failing

    /// Closes the socket, fails every waiting command with `error`, and connects again: at once after a
    /// connection that was up for a while (a server that accepts and at once closes, e.g. at `maxclients`, gets
    /// the growing backoff, not a busy loop), else after the backoff.
    private func fail(_ error: RedisError, reconnectAtOnce: Bool) {
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

    private func tearDown(failing error: RedisError) {
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

    private func setReady(_ ready: Bool) {
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
