import Synchronization

/// What a subscription delivers. A plain value.
public enum RedisSubscriptionEvent: Sendable, Equatable {
    /// Redis confirmed the subscription to `channel` (again after each reconnect): from now on its messages arrive.
    case subscribed(channel: [UInt8])
    /// A message published to `channel`.
    case message(channel: [UInt8], payload: [UInt8])
    /// The connection broke: messages published until the next `subscribed` are lost (pub/sub keeps nothing), so
    /// a consumer that must not miss one catches up from its source of record.
    case disconnected
}

/// A pub/sub subscription on a connection of its own, subscribed again after every reconnect.
///
/// Thread rules: thread-safe (`Sendable`): it only hands work to the client's loop thread, and the dropped-event
/// count is atomic. Ended by ``cancel()``, by cancelling the task iterating ``events``, or by the client's
/// shutdown; merely dropping this object keeps its connection until one of those (so iterating `events` alone
/// keeps working). The client's loop thread lives while the client or this object does.
public final class RedisSubscription: Sendable {
    /// The events, in order. Finishes when the subscription ends.
    public let events: AsyncStream<RedisSubscriptionEvent>
    private let owner: RedisLoopOwner
    private let connection: RedisConnection
    private let continuation: AsyncStream<RedisSubscriptionEvent>.Continuation
    private let dropped: DropCount

    init(owner: RedisLoopOwner, channels: [RedisArgument], bufferLimit: Int) {
        self.owner = owner
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingOldest(max(1, bufferLimit)))
        let connection = RedisConnection(loop: owner.loop, configuration: owner.core.configuration,
                                         counters: owner.core.counters)
        self.connection = connection
        let continuation = continuation
        let core = owner.core
        let dropped = DropCount()
        self.dropped = dropped
        let deliver: @Sendable (RedisSubscriptionEvent) -> Void = { event in
            if case .dropped = continuation.yield(event) { dropped.value.add(1, ordering: .relaxed) }
        }
        continuation.onTermination = { [loop = owner.loop] _ in
            loop.execute { core.remove(connection) }
        }
        owner.loop.execute {
            connection.onAttempt = { connection.write(["SUBSCRIBE"] + channels) }
            connection.onLost = { deliver(.disconnected) }
            connection.onReply = { reply in Self.event(from: reply).map(deliver) }
            connection.onClose = { continuation.finish() }
            core.add(connection)
        }
    }

    /// Events dropped because the consumer fell more than `bufferLimit` behind.
    public var droppedCount: Int { dropped.value.load(ordering: .relaxed) }

    /// Unsubscribes (closes the connection) and finishes ``events``.
    public func cancel() {
        continuation.finish()
    }

    /// The event a push reply (RESP2 array or RESP3 push) stands for, if any.
    static func event(from reply: RESPValue) -> RedisSubscriptionEvent? {
        guard let parts = reply.elements, parts.count == 3, let kind = parts[0].string?.lowercased(),
              let channel = parts[1].bytes
        else { return nil }
        switch kind {
        case "message": return parts[2].bytes.map { .message(channel: channel, payload: $0) }
        case "subscribe": return .subscribed(channel: channel)
        default: return nil
        }
    }
}

/// Thread-safe (atomic).
private final class DropCount: Sendable {
    let value = Atomic<Int>(0)
}
