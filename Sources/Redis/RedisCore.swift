import EventLoop
import Synchronization

/// The client's state on its loop: the pool, the extra connections (dedicated, subscribers), the health and its
/// observers, and the timer that drives timeouts and reconnects.
///
/// Thread rules: loop-confined (every method runs on `loop`'s thread, reached through `loop.execute`), except
/// `available`, an atomic any thread reads. Hence `@unchecked Sendable`.
final class RedisCore: @unchecked Sendable {
    /// How often deadlines and reconnect times are checked: the granularity of every timeout.
    static let tickInterval: Duration = .milliseconds(25)

    let loop: EventLoop
    let configuration: RedisConfiguration
    let available = Atomic<Bool>(false)
    let counters = RedisCounters()

    private var pool: [RedisConnection] = []
    private var extras: [ObjectIdentifier: RedisConnection] = [:]
    private var next = 0
    private var closed = false
    /// The last health told to observers: nil before the first verdict.
    private var health: Bool?
    private var healthCheckScheduled = false
    private var observers: [@Sendable (Bool) -> Void] = []
    private var finishers: [@Sendable () -> Void] = []

    init(loop: EventLoop, configuration: RedisConfiguration) {
        self.loop = loop
        self.configuration = configuration
    }

    /// Creates the pool, starts connecting and the timer.
    func start() {
        loop.assertInLoop()
        for _ in 0..<configuration.poolSize {
            let connection = RedisConnection(loop: loop, configuration: configuration, counters: counters)
            connection.onHealthChange = { [unowned self] in scheduleHealthCheck() }
            pool.append(connection)
        }
        loop.addRepeatingTimer(every: Self.tickInterval) { [weak self] in self?.tick() }
        for connection in pool { connection.start() }
        scheduleHealthCheck()
    }

    /// Sends `commands` together on one pooled connection: a ready one (round robin), else one being connected;
    /// fails them at once (``RedisError/unavailable``, ``RedisError/shutdown``) when there is none.
    func send(_ commands: [[RedisArgument]], timeout: Duration?, request: RedisRequest?,
              _ complete: @escaping ([Result<RESPValue, RedisError>]) -> Void) {
        loop.assertInLoop()
        guard !closed else { return complete(commands.map { _ in .failure(.shutdown) }) }
        let count = pool.count
        var fallback: RedisConnection?
        for offset in 0..<count {
            let connection = pool[(next + offset) % count]
            if connection.isReady {
                next = (next + offset + 1) % count
                return connection.enqueue(commands, timeout: timeout, request: request, complete)
            }
            if fallback == nil && connection.isConnecting { fallback = connection }
        }
        guard let fallback else { return complete(commands.map { _ in .failure(.unavailable) }) }
        fallback.enqueue(commands, timeout: timeout, request: request, complete)
    }

    /// Cancels `request`'s command wherever in the pool it waits.
    func cancel(_ request: RedisRequest) {
        loop.assertInLoop()
        for connection in pool { connection.cancel(request) }
    }

    /// Adds a dedicated or subscriber connection (not part of the pool or the health) and starts it.
    func add(_ connection: RedisConnection) {
        loop.assertInLoop()
        guard !closed else { return connection.close() }
        extras[ObjectIdentifier(connection)] = connection
        connection.start()
    }

    /// Closes and forgets an extra connection.
    func remove(_ connection: RedisConnection) {
        loop.assertInLoop()
        connection.close()
        extras[ObjectIdentifier(connection)] = nil
    }

    /// `observer` gets the current health (when known) now and every change after, on the loop thread.
    func addObserver(_ observer: @escaping @Sendable (Bool) -> Void, finish: (@Sendable () -> Void)?) {
        loop.assertInLoop()
        guard !closed else { finish?(); return }
        observers.append(observer)
        if let finish { finishers.append(finish) }
        if let health { observer(health) }
    }

    /// Closes everything: waiting commands fail with ``RedisError/shutdown``.
    func shutdown() {
        loop.assertInLoop()
        guard !closed else { return }
        closed = true
        for connection in pool + extras.values { connection.close() }
        extras = [:]
        available.store(false, ordering: .releasing)
        for finish in finishers { finish() }
        finishers = []
        observers = []
    }

    private func tick() {
        let now = ContinuousClock.now
        for connection in pool { connection.tick(now: now) }
        for connection in extras.values { connection.tick(now: now) }
    }

    /// Later in this loop turn, once a failed connection has had its chance to reconnect at once.
    private func scheduleHealthCheck() {
        guard !healthCheckScheduled else { return }
        healthCheckScheduled = true
        loop.execute { [self] in
            healthCheckScheduled = false
            checkHealth()
        }
    }

    /// Up when a pooled connection is ready; down when none is, and every one has failed an attempt since it was
    /// last up (a reconnect after a timeout, or a first attempt under way, decides nothing yet).
    private func checkHealth() {
        guard !closed else { return }
        let verdict: Bool
        if pool.contains(where: \.isReady) {
            verdict = true
        } else if pool.allSatisfy(\.hasFailedSinceReady) {
            verdict = false
        } else {
            return
        }
        guard verdict != health else { return }
        health = verdict
        available.store(verdict, ordering: .releasing)
        for observer in observers { observer(verdict) }
    }
}

/// Keeps the client's loop thread alive while anything can still use it (the client, a dedicated connection, a
/// subscription hold it), and stops it when the last of them is gone. Thread-safe (immutable).
final class RedisLoopOwner: Sendable {
    let loop: EventLoop
    let core: RedisCore

    init(configuration: RedisConfiguration) throws(RedisError) {
        do {
            loop = try EventLoop(index: 0, name: "rowstream-redis")
        } catch {
            throw .connectFailed("cannot start the client's event loop: \(error)")
        }
        core = RedisCore(loop: loop, configuration: configuration)
        loop.start()
        loop.execute { [core] in core.start() }
    }

    deinit {
        loop.execute { [core, loop] in
            core.shutdown()
            loop.stop()
        }
    }

    /// Sends `commands` together (one after the other on one connection, nothing between them) on `connection`
    /// (nil: the pool) and awaits their replies; cancelling the calling task fails them at once with
    /// ``RedisError/cancelled``.
    func send(_ commands: [[RedisArgument]], timeout: Duration?, on connection: RedisConnection?) async
        -> [Result<RESPValue, RedisError>] {
        let request = RedisRequest()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                loop.execute { [core] in
                    let complete: ([Result<RESPValue, RedisError>]) -> Void = { continuation.resume(returning: $0) }
                    // Cancelled before it got here: the cancel below ran first and found nothing.
                    guard !request.isCancelled else { return complete(commands.map { _ in .failure(.cancelled) }) }
                    if let connection {
                        connection.enqueue(commands, timeout: timeout, request: request, complete)
                    } else {
                        core.send(commands, timeout: timeout, request: request, complete)
                    }
                }
            }
        } onCancel: {
            request.cancel()
            loop.execute { [core] in
                if let connection { connection.cancel(request) } else { core.cancel(request) }
            }
        }
    }

    /// `send` of one command.
    func send(_ arguments: [RedisArgument], timeout: Duration?, on connection: RedisConnection?) async
        -> Result<RESPValue, RedisError> {
        await send([arguments], timeout: timeout, on: connection)[0]
    }

    /// Runs `body` on the loop and awaits what it hands to its completion.
    func run<T: Sendable>(_ body: @escaping @Sendable (RedisCore, @escaping (T) -> Void) -> Void) async -> T {
        await withCheckedContinuation { continuation in
            loop.execute { [core] in body(core) { continuation.resume(returning: $0) } }
        }
    }
}

/// One `send` call, so its cancellation finds its command. Thread-safe (atomic flag; compared by identity).
final class RedisRequest: Sendable {
    private let cancelled = Atomic<Bool>(false)
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
    func cancel() { cancelled.store(true, ordering: .releasing) }
}
