import Synchronization

/// A snapshot of server counters. Thread-safe: a value type.
public struct HTTPServerStatistics: Sendable, Hashable {
    /// Connections open now.
    public var openConnections: Int
    /// Connections accepted since start.
    public var totalConnections: Int
    /// Streaming responses open now.
    public var openStreams: Int
    /// Requests parsed since start (including ones answered with an error).
    public var totalRequests: Int
    /// Connections dropped because their write buffer passed the limit.
    public var droppedSlowConsumers: Int
    /// Connections refused with 503 because a connection cap was reached.
    public var refusedConnections: Int
}

/// The live counters behind `HTTPServerStatistics`. Thread-safe (atomics).
final class ServerCounters: Sendable {
    let openConnections = Atomic<Int>(0)
    let totalConnections = Atomic<Int>(0)
    let openStreams = Atomic<Int>(0)
    let totalRequests = Atomic<Int>(0)
    let droppedSlowConsumers = Atomic<Int>(0)
    let refusedConnections = Atomic<Int>(0)

    var snapshot: HTTPServerStatistics {
        HTTPServerStatistics(
            openConnections: openConnections.load(ordering: .relaxed),
            totalConnections: totalConnections.load(ordering: .relaxed),
            openStreams: openStreams.load(ordering: .relaxed),
            totalRequests: totalRequests.load(ordering: .relaxed),
            droppedSlowConsumers: droppedSlowConsumers.load(ordering: .relaxed),
            refusedConnections: refusedConnections.load(ordering: .relaxed)
        )
    }
}
