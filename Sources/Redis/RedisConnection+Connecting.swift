import CSystem
import EventLoop
import Glibc

/// Connecting: an attempt (a fresh parser and output, AUTH and SELECT queued first), its socket registered with the
/// loop, and what is held while connecting written once connected. Loop-confined, as ``RedisConnection``.
extension RedisConnection {
    /// Starts connecting now, if idle.
    func start() {
        loop.assertInLoop()
        if case .idle = state { startAttempt() }
    }

    func startAttempt() {
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

    func connected() {
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
}
