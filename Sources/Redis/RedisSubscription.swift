import Synchronization

/// What a subscription delivers. A plain value.
public enum RedisSubscriptionEvent: Sendable, Equatable {
    /// Redis confirmed the subscription to `channel` or pattern (again after each reconnect): from now on its
    /// messages arrive.
    case subscribed(channel: [UInt8])
    /// A message published to `channel` (also when it came through a pattern).
    case message(channel: [UInt8], payload: [UInt8])
    /// The connection broke: messages published until the next `subscribed` are lost (pub/sub keeps nothing), so
    /// a consumer that must not miss one catches up from its source of record.
    case disconnected
}

/// A pub/sub subscription on a connection of its own, to channels and patterns that can be added and removed
/// while it runs; subscribed again to all of them after every reconnect. One subscription serves any number of
/// channels (one connection).
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
    private let topics: Topics

    init(owner: RedisLoopOwner, channels: [RedisArgument], patterns: [RedisArgument], bufferLimit: Int) {
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
        let topics = Topics()
        self.topics = topics
        owner.loop.execute {
            topics.channels = []
            topics.patterns = []
            topics.add(channels, to: \.channels)
            topics.add(patterns, to: \.patterns)
            connection.onAttempt = { [unowned connection] in
                if !topics.channels.isEmpty { connection.write(["SUBSCRIBE"] + topics.channels) }
                if !topics.patterns.isEmpty { connection.write(["PSUBSCRIBE"] + topics.patterns) }
            }
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

    /// Adds channels (`SUBSCRIBE`); a `.subscribed` event confirms each.
    public func subscribe(to channels: [RedisArgument]) {
        change(channels, \.channels, add: true, command: "SUBSCRIBE")
    }

    /// Removes channels (`UNSUBSCRIBE`).
    public func unsubscribe(from channels: [RedisArgument]) {
        change(channels, \.channels, add: false, command: "UNSUBSCRIBE")
    }

    /// Adds glob-style patterns (`PSUBSCRIBE`, e.g. `landed:*`); a `.subscribed` event confirms each.
    public func subscribe(toPatterns patterns: [RedisArgument]) {
        change(patterns, \.patterns, add: true, command: "PSUBSCRIBE")
    }

    /// Removes patterns (`PUNSUBSCRIBE`).
    public func unsubscribe(fromPatterns patterns: [RedisArgument]) {
        change(patterns, \.patterns, add: false, command: "PUNSUBSCRIBE")
    }

    private func change(_ names: [RedisArgument], _ list: ReferenceWritableKeyPath<Topics, [RedisArgument]> & Sendable,
                        add: Bool, command: RedisArgument) {
        owner.loop.execute { [topics, connection] in
            let changed = add ? topics.add(names, to: list) : topics.remove(names, from: list)
            // Written now if connected; otherwise the next connection subscribes to the whole set anyway.
            if !changed.isEmpty { connection.write([command] + changed) }
        }
    }

    /// The event a push reply (RESP2 array or RESP3 push) stands for, if any.
    static func event(from reply: RESPValue) -> RedisSubscriptionEvent? {
        guard let parts = reply.elements, parts.count >= 3, let kind = parts[0].string?.lowercased() else { return nil }
        switch (kind, parts.count) {
        case ("message", 3):
            guard let channel = parts[1].bytes, let payload = parts[2].bytes else { return nil }
            return .message(channel: channel, payload: payload)
        case ("pmessage", 4):  // pattern, channel, payload
            guard let channel = parts[2].bytes, let payload = parts[3].bytes else { return nil }
            return .message(channel: channel, payload: payload)
        case ("subscribe", 3), ("psubscribe", 3):
            return parts[1].bytes.map { .subscribed(channel: $0) }
        default:
            return nil
        }
    }
}

/// Thread-safe (atomic).
private final class DropCount: Sendable {
    let value = Atomic<Int>(0)
}

/// The channels and patterns a subscription wants, in the order first asked for, without repeats.
/// Thread rules: loop-confined (the client's loop thread), hence `@unchecked Sendable`.
private final class Topics: @unchecked Sendable {
    var channels: [RedisArgument] = []
    var patterns: [RedisArgument] = []

    /// Adds the names not there yet; returns them.
    @discardableResult
    func add(_ names: [RedisArgument], to list: ReferenceWritableKeyPath<Topics, [RedisArgument]>) -> [RedisArgument] {
        var added: [RedisArgument] = []
        for name in names where !self[keyPath: list].contains(name) && !added.contains(name) { added.append(name) }
        self[keyPath: list] += added
        return added
    }

    /// Removes the names that are there; returns them.
    func remove(_ names: [RedisArgument], from list: ReferenceWritableKeyPath<Topics, [RedisArgument]>)
        -> [RedisArgument] {
        let removed = self[keyPath: list].filter { names.contains($0) }
        self[keyPath: list].removeAll { names.contains($0) }
        return removed
    }
}
