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
    /// Event loops whose sends go through io_uring (``HTTPServerConfiguration/ioUring``); 0 on the `sendmsg` path.
    public var ioUringLoops: Int = 0
    /// Sends submitted through io_uring since start (each one connection's bytes).
    public var ioUringSends: Int = 0
    /// io_uring sends after whose completion bytes were left (a partial send, or writes queued behind it): each
    /// continued through `sendmsg` and EPOLLOUT.
    public var ioUringSendsContinued: Int = 0
    /// Stream writes that left in one send with an earlier one: queued behind it while unsent (writes of one loop
    /// pass go out together at its end, ``ServerLoop``), then sent by a send that emptied the queue. N events to a
    /// viewer in one send count N - 1. Grows only when writes queue up: broadcasts behind each other, a full socket.
    public var sendsCoalesced: Int = 0
    /// Times the accepting loop paused before a wait because connections arrived as a storm
    /// (``HTTPServerConfiguration/arrivalPause``).
    public var arrivalPauses: Int = 0
}

/// The live counters behind `HTTPServerStatistics`. Thread-safe (atomics).
final class ServerCounters: Sendable {
    let openConnections = Atomic<Int>(0)
    let totalConnections = Atomic<Int>(0)
    let openStreams = Atomic<Int>(0)
    let totalRequests = Atomic<Int>(0)
    let droppedSlowConsumers = Atomic<Int>(0)
    let refusedConnections = Atomic<Int>(0)
    let ioUringLoops = Atomic<Int>(0)
    let ioUringSends = Atomic<Int>(0)
    let ioUringSendsContinued = Atomic<Int>(0)
    let sendsCoalesced = Atomic<Int>(0)
    let arrivalPauses = Atomic<Int>(0)

    var snapshot: HTTPServerStatistics {
        HTTPServerStatistics(
            openConnections: openConnections.load(ordering: .relaxed),
            totalConnections: totalConnections.load(ordering: .relaxed),
            openStreams: openStreams.load(ordering: .relaxed),
            totalRequests: totalRequests.load(ordering: .relaxed),
            droppedSlowConsumers: droppedSlowConsumers.load(ordering: .relaxed),
            refusedConnections: refusedConnections.load(ordering: .relaxed),
            ioUringLoops: ioUringLoops.load(ordering: .relaxed),
            ioUringSends: ioUringSends.load(ordering: .relaxed),
            ioUringSendsContinued: ioUringSendsContinued.load(ordering: .relaxed),
            sendsCoalesced: sendsCoalesced.load(ordering: .relaxed),
            arrivalPauses: arrivalPauses.load(ordering: .relaxed)
        )
    }
}
