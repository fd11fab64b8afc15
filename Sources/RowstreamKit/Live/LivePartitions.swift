import HTTPServer
import Locking

/// The live updates of a table whose rows differ per viewer (``TableBinding/partition``: a config table that forwards
/// the viewer's name, header or cookie upstream): one ``LiveFeed`` per identity that has viewers on this server, each
/// with its own refresher, head, diffs and viewers, loading as that identity's first viewer. So one identity's changes
/// reach its own viewers only, and never another's. Bounded: at most ``LiveUpdates/maxPartitions`` at once (a viewer
/// of one more identity is refused: `503`); a partition stops when its last viewer leaves (one whose viewer never
/// arrived, when room is needed). Instance-local: a partition never uses the cluster's channel (docs/SCALING.md).
///
/// Thread-safe: one `Lock` over the partitions (taken before a feed's own lock, never inside it); feeds are started
/// and stopped outside it. Ownership: the server holds it and stops every partition at shutdown.
final class LivePartitions: Sendable {
    let table: TableBinding
    /// Where its feeds' loads report failures.
    let logger: any RowstreamLogger
    private let state = Lock<(feeds: [String: LiveFeed], stopped: Bool)>(([:], false))

    init(table: TableBinding, logger: any RowstreamLogger = StandardErrorLogger()) {
        self.table = table
        self.logger = logger
    }

    var capacity: Int { table.live?.maxPartitions ?? LiveUpdates().maxPartitions }

    /// Partitions running now.
    var count: Int { state.withLock { $0.feeds.count } }

    /// The feed of `viewer`'s identity: the running one, or a new one started for it. `403` for a viewer the table
    /// refuses, `503` when every partition has viewers and there is no room for one more, or the server stops.
    func feed(for viewer: Viewer) throws(HTTPError) -> LiveFeed {
        let identity: String
        switch table.partition?(viewer) {
        case .identity(let named)?: identity = named
        case .refused(let why)?: throw HTTPError(.forbidden, why)
        case nil: throw HTTPError(.notFound, "this table is not live")
        }
        var evicted: LiveFeed?
        let made = state.withLock { state -> (feed: LiveFeed, isNew: Bool)? in
            guard !state.stopped else { return nil }
            if let feed = state.feeds[identity] { return (feed, false) }
            if state.feeds.count >= capacity {
                // A partition whose viewer never subscribed (its stream failed to open) makes room.
                guard let idle = state.feeds.first(where: { $0.value.viewerCount == 0 }) else { return nil }
                state.feeds[idle.key] = nil
                evicted = idle.value
            }
            let feed = LiveFeed(table: table, viewer: viewer, logger: logger) { [weak self] feed in self?.retire(feed, identity) }
            state.feeds[identity] = feed
            return (feed, true)
        }
        evicted?.stop()
        guard let made else {
            throw HTTPError(.serviceUnavailable, "too many viewers' live feeds of this table at once; try again later")
        }
        if made.isNew { made.feed.start() }
        return made.feed
    }

    /// The running feed of `viewer`'s identity, if it has one (a refresh starts none).
    func existingFeed(for viewer: Viewer) -> LiveFeed? {
        guard let identity = table.partition?(viewer).identity else { return nil }
        return state.withLock { $0.feeds[identity] }
    }

    /// Stops `feed`, the partition of `identity`, if it has no viewer (its last one left).
    private func retire(_ feed: LiveFeed, _ identity: String) {
        let retired = state.withLock { state -> Bool in
            guard state.feeds[identity] === feed, feed.viewerCount == 0 else { return false }
            state.feeds[identity] = nil
            return true
        }
        if retired { feed.stop() }
    }

    /// Stops every partition, and makes no more. Idempotent.
    func stop() {
        let feeds = state.withLock { state -> [LiveFeed] in
            state.stopped = true
            defer { state.feeds = [:] }
            return Array(state.feeds.values)
        }
        feeds.forEach { $0.stop() }
    }
}
