import Synchronization

/// Counts since the client started, over the pool, dedicated connections and subscriptions: for /metrics.
/// A plain value (a snapshot).
public struct RedisStatistics: Sendable, Equatable {
    /// Connections established (including AUTH/SELECT).
    public var connectionsOpened: Int
    /// Established connections that broke or were closed after a timeout (not counting `shutdown`/`close`).
    public var connectionsLost: Int
    /// Connect attempts that failed (refused, no socket, connect timeout, AUTH/SELECT refused).
    public var connectFailures: Int
    /// Commands that got no reply within their timeout.
    public var commandsTimedOut: Int
}

/// The live counters behind ``RedisStatistics``. Thread-safe (atomics): written on the loop thread, read anywhere.
final class RedisCounters: Sendable {
    let connectionsOpened = Atomic<Int>(0)
    let connectionsLost = Atomic<Int>(0)
    let connectFailures = Atomic<Int>(0)
    let commandsTimedOut = Atomic<Int>(0)

    var snapshot: RedisStatistics {
        RedisStatistics(connectionsOpened: connectionsOpened.load(ordering: .relaxed),
                        connectionsLost: connectionsLost.load(ordering: .relaxed),
                        connectFailures: connectFailures.load(ordering: .relaxed),
                        commandsTimedOut: commandsTimedOut.load(ordering: .relaxed))
    }
}
