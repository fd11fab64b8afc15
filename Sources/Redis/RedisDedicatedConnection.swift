/// One connection of its own (not pooled), for blocking commands such as `XREAD BLOCK`: send them here with a
/// timeout longer than the block. Commands are pipelined like the pool's; it reconnects by itself after errors.
///
/// Thread rules: thread-safe (`Sendable`): it only hands work to the client's loop thread. Closed by ``close()``
/// or when the last reference is dropped.
public final class RedisDedicatedConnection: RedisCommandSending {
    private let owner: RedisLoopOwner
    private let connection: RedisConnection

    init(owner: RedisLoopOwner) {
        self.owner = owner
        connection = RedisConnection(loop: owner.loop, configuration: owner.core.configuration,
                                     counters: owner.core.counters)
        owner.loop.execute { [core = owner.core, connection] in core.add(connection) }
    }

    deinit {
        owner.loop.execute { [core = owner.core, connection] in core.remove(connection) }
    }

    /// As ``RedisClient/send(_:timeout:)``, on this connection.
    public func send(_ arguments: [RedisArgument], timeout: Duration? = nil) async throws(RedisError) -> RESPValue {
        try await owner.send(arguments, timeout: timeout, on: connection).get()
    }

    /// Sends `commands` together on one connection (see ``RedisCommandSending/pipeline(_:timeout:)``).
    public func pipeline(_ commands: [[RedisArgument]], timeout: Duration? = nil) async
        -> [Result<RESPValue, RedisError>] {
        await owner.send(commands, timeout: timeout, on: connection)
    }

    /// Closes it: waiting commands fail with ``RedisError/shutdown``, later ones too.
    public func close() async {
        await owner.run { [connection] core, done in
            core.remove(connection)
            done(())
        }
    }
}
