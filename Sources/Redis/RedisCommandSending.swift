/// Anything that sends commands: the pooled ``RedisClient`` and a ``RedisDedicatedConnection``. The convenience
/// commands (RedisCommandSending+Commands.swift) are built on `send`.
public protocol RedisCommandSending: Sendable {
    /// Sends one command and awaits its reply within `timeout` (nil: the configured command timeout). Error
    /// replies throw ``RedisError/server(_:)``.
    func send(_ arguments: [RedisArgument], timeout: Duration?) async throws(RedisError) -> RESPValue

    /// Sends `commands` together: one after the other on one connection, nothing between them (so `MULTI` ...
    /// `EXEC` stays whole), each within `timeout`; returns each one's result in order (an error reply is that
    /// command's ``RedisError/server(_:)``).
    func pipeline(_ commands: [[RedisArgument]], timeout: Duration?) async -> [Result<RESPValue, RedisError>]
}

extension RedisCommandSending {
    /// `send(arguments, timeout: nil)`.
    public func send(_ arguments: RedisArgument...) async throws(RedisError) -> RESPValue {
        try await send(arguments, timeout: nil)
    }
}
