/// Where Redis listens. A plain value.
public enum RedisAddress: Sendable, Equatable, CustomStringConvertible {
    /// A numeric IPv4 or IPv6 address (or `localhost`) and a port. Names are not resolved: resolving would wait
    /// on DNS, on the client's loop thread (see docs/SCALING.md, "The Redis client").
    case tcp(host: String, port: Int)
    /// A unix socket path.
    case unix(path: String)

    public var description: String {
        switch self {
        case .tcp(let host, let port): return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unix(let path): return "unix:\(path)"
        }
    }
}

/// How long to wait before connecting again after a failure: `initial`, doubling per failed attempt up to
/// `maximum`, each delay drawn uniformly from its upper half (jitter, so instances do not reconnect in step).
/// A plain value.
public struct RedisBackoff: Sendable, Equatable {
    public var initial: Duration
    public var maximum: Duration

    public init(initial: Duration = .milliseconds(50), maximum: Duration = .seconds(2)) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The delay before attempt `failures + 1` (`failures` >= 1), jittered by `random` in 0...1.
    public func delay(afterFailures failures: Int, random: Double) -> Duration {
        let exponent = min(max(failures - 1, 0), 30)
        let ceiling = min(maximum, initial * (1 << exponent))
        return ceiling * (0.5 + 0.5 * min(max(random, 0), 1))
    }
}

/// Everything a ``RedisClient`` needs. A plain value.
public struct RedisConfiguration: Sendable {
    public var address: RedisAddress
    /// Pooled connections (commands are spread over them, each pipelined). Dedicated connections (blocking reads)
    /// and subscriptions are extra.
    public var poolSize: Int
    /// The bound on establishing one connection (and its AUTH/SELECT).
    public var connectTimeout: Duration
    /// The bound on each command's reply, unless `send` is given another.
    public var commandTimeout: Duration
    public var reconnectBackoff: RedisBackoff
    public var limits: RESPLimits
    /// Sent as `AUTH` on every new connection, when set.
    public var password: String?
    /// Sent as `SELECT` on every new connection, when not 0.
    public var database: Int

    public init(address: RedisAddress, poolSize: Int = 2, connectTimeout: Duration = .seconds(1),
                commandTimeout: Duration = .seconds(1), reconnectBackoff: RedisBackoff = RedisBackoff(),
                limits: RESPLimits = RESPLimits(), password: String? = nil, database: Int = 0) {
        self.address = address
        self.poolSize = poolSize
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
        self.reconnectBackoff = reconnectBackoff
        self.limits = limits
        self.password = password
        self.database = database
    }
}
