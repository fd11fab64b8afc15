import HTTPServer

/// A server's live tables by name: each table's one ``LiveFeed``, or for a table whose rows differ per viewer, its
/// ``LivePartitions`` (a feed per identity). Routes ask for the feed of the viewer being answered.
///
/// Thread-safe: immutable; the feeds and partitions are thread-safe.
struct LiveFeeds: Sendable {
    /// The tables with one feed for every viewer.
    let shared: [String: LiveFeed]
    /// The tables with a feed per identity.
    let partitioned: [String: LivePartitions]

    /// The feeds of `tables`' live ones; a table with one feed for all follows the cluster's `channel` for it (nil:
    /// alone). Partitioned tables never do: their feeds are this instance's (docs/SCALING.md). Their loads' failures
    /// go to `logger`.
    init(_ tables: [TableBinding], channel: (String) -> (any LiveChannel)?,
         logger: any RowstreamLogger = StandardErrorLogger()) {
        var shared: [String: LiveFeed] = [:]
        var partitioned: [String: LivePartitions] = [:]
        for table in tables where table.live != nil {
            if table.partition != nil {
                partitioned[table.name] = LivePartitions(table: table, logger: logger)
            } else {
                shared[table.name] = LiveFeed(table: table, channel: channel(table.name), logger: logger)
            }
        }
        self.shared = shared
        self.partitioned = partitioned
    }

    /// True if table `name` is live.
    func isLive(_ name: String) -> Bool { shared[name] != nil || partitioned[name] != nil }

    /// The feed of table `name` for `viewer`, started for them if their identity has none yet; nil: the table is
    /// not live. A partitioned table's errors: ``LivePartitions/feed(for:)``.
    func feed(for name: String, viewer: Viewer) throws(HTTPError) -> LiveFeed? {
        // No live table (the usual case): no name hashed twice per arriving viewer.
        if shared.isEmpty && partitioned.isEmpty { return nil }
        if let feed = shared[name] { return feed }
        return try partitioned[name]?.feed(for: viewer)
    }

    /// The running feed of table `name` for `viewer`, if any: a refresh starts no partition (its identity has no
    /// viewer here, so nothing would change for anyone).
    func runningFeed(for name: String, viewer: Viewer) -> LiveFeed? {
        shared[name] ?? partitioned[name]?.existingFeed(for: viewer)
    }

    /// Starts the tables' one feeds (partitions start as their first viewer arrives).
    func start() { shared.values.forEach { $0.start() } }

    /// Stops every feed and partition.
    func stop() {
        shared.values.forEach { $0.stop() }
        partitioned.values.forEach { $0.stop() }
    }
}
