/// A Redis client: a pool of pipelined connections on one event-loop thread of its own, re-established in the
/// background after errors, with a health state (``isAvailable`` and observers). Commands are `async` and never
/// block the caller's thread: the waiting happens on the client's loop thread. See docs/SCALING.md,
/// "The Redis client".
///
/// Thread rules: thread-safe (`Sendable`); call anything from any thread or task. Observers run on the client's
/// loop thread and must not block. Call ``shutdown()`` when done (or drop every reference: the loop thread stops
/// when the client and its dedicated connections and subscriptions are all gone).
public final class RedisClient: RedisCommandSending {
    public let configuration: RedisConfiguration
    private let owner: RedisLoopOwner

    /// Starts the loop thread and begins connecting (in the background: the client is usable at once; commands
    /// sent before a connection is up wait for it within their timeout). Throws
    /// ``RedisError/invalidConfiguration(_:)`` for an address, pool size or timeout that cannot work.
    public init(configuration: RedisConfiguration) throws(RedisError) {
        _ = try RedisSocket.resolve(configuration.address)
        guard configuration.poolSize >= 1 else { throw .invalidConfiguration("poolSize must be at least 1") }
        guard configuration.connectTimeout > .zero, configuration.commandTimeout > .zero else {
            throw .invalidConfiguration("timeouts must be positive")
        }
        guard configuration.reconnectBackoff.initial > .zero,
              configuration.reconnectBackoff.maximum >= configuration.reconnectBackoff.initial
        else { throw .invalidConfiguration("reconnect backoff must be positive, maximum >= initial") }
        self.configuration = configuration
        owner = try RedisLoopOwner(configuration: configuration)
    }

    /// Whether a pooled connection is up now. Thread-safe.
    public var isAvailable: Bool { owner.core.available.load(ordering: .acquiring) }

    /// What happened to its connections and commands so far (for /metrics). Thread-safe.
    public var statistics: RedisStatistics { owner.core.counters.snapshot }

    /// Calls `observer` with the current health once it is known (true: up) and on every change after: once per
    /// transition, so a server can log it once and show it in /metrics. Runs on the client's loop thread: must
    /// not block.
    public func addHealthObserver(_ observer: @escaping @Sendable (Bool) -> Void) {
        owner.loop.execute { [core = owner.core] in core.addObserver(observer, finish: nil) }
    }

    /// The health as a stream: the current state once known, then each change; finishes at ``shutdown()``.
    public func healthChanges() -> AsyncStream<Bool> {
        let (stream, continuation) = AsyncStream.makeStream(of: Bool.self, bufferingPolicy: .bufferingNewest(16))
        owner.loop.execute { [core = owner.core] in
            core.addObserver({ continuation.yield($0) }, finish: { continuation.finish() })
        }
        return stream
    }

    /// Sends one command on a pooled connection and awaits its reply. An error reply throws
    /// ``RedisError/server(_:)``. Fails at once with ``RedisError/unavailable`` while no connection is up;
    /// otherwise waits at most `timeout` (default: the configuration's `commandTimeout`) and throws
    /// ``RedisError/timedOut``. Cancelling the calling task fails it at once with ``RedisError/cancelled``.
    public func send(_ arguments: [RedisArgument], timeout: Duration? = nil) async throws(RedisError) -> RESPValue {
        try await owner.send(arguments, timeout: timeout, on: nil).get()
    }

    /// Sends `commands` together on one connection (see ``RedisCommandSending/pipeline(_:timeout:)``).
    public func pipeline(_ commands: [[RedisArgument]], timeout: Duration? = nil) async
        -> [Result<RESPValue, RedisError>] {
        await owner.send(commands, timeout: timeout, on: nil)
    }

    /// Opens a connection of its own, for commands that block (`XREAD BLOCK`, `BLPOP`): they must not hold up a
    /// pooled connection's pipeline. It reconnects by itself like the pool's; close it when done.
    public func makeDedicatedConnection() -> RedisDedicatedConnection {
        RedisDedicatedConnection(owner: owner)
    }

    /// Subscribes to `channels` and glob-style `patterns` on a connection of its own (more can be added and removed
    /// later); it subscribes again after every reconnect. Messages arrive on the subscription's
    /// ``RedisSubscription/events`` (buffering at most `bufferLimit` undelivered events: more are dropped and
    /// counted).
    public func subscribe(to channels: [RedisArgument] = [], patterns: [RedisArgument] = [],
                          bufferLimit: Int = 10_000) -> RedisSubscription {
        RedisSubscription(owner: owner, channels: channels, patterns: patterns, bufferLimit: bufferLimit)
    }

    /// Closes every connection (waiting commands fail with ``RedisError/shutdown``), finishes the streams; later
    /// commands fail with ``RedisError/shutdown``. The loop thread ends when the last reference is dropped.
    public func shutdown() async {
        await owner.run { core, done in
            core.shutdown()
            done(())
        }
    }
}
