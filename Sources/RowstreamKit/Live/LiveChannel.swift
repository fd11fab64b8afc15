/// What a live table needs from a cluster of Rowstream instances (docs/SCALING.md, "Live tables across
/// instances"): a refresher lease per table, a log of the table's heads published once and read by every instance
/// in order, the head as it stands, and a way to ask the lease holder for a refresh. Implemented over Redis
/// (`RedisLiveCluster` in Dashboard: a lease key, a hash, a stream) and in memory for tests.
///
/// Every call may throw when the shared store is unreachable or slow: the feed then refreshes on its own instance
/// (today's single-process behaviour) until ``LiveChannel/isAvailable`` again and a read succeeds.
///
/// Thread-safe: implementations are `Sendable` and may be called from any task.
package protocol LiveCluster: Sendable {
    /// The channel of the live table `table` (one per table and instance).
    func channel(table: String) -> any LiveChannel
}

/// One live table's part of a ``LiveCluster``. Thread-safe: any task may call it.
package protocol LiveChannel: Sendable {
    /// Whether the shared store is reachable now (a cheap check; calls may still fail).
    var isAvailable: Bool { get }
    /// Takes the table's refresher lease for `owner` for `duration` if nobody holds it (`SET NX PX`), or renews it
    /// if `owner` holds it (compare and `PEXPIRE`): whether `owner` holds it now.
    func holdLease(_ owner: String, for duration: Duration) async throws -> Bool
    /// Gives the lease up if `owner` holds it (compare and delete).
    func releaseLease(_ owner: String) async throws
    /// The table's head as last published (nil: none yet, or the store lost it).
    func head() async throws -> LiveHead?
    /// Publishes `head` as the table's next head, once, if `owner` still holds the lease and the current head is
    /// still at `base` (nil: there is none): its position, or nil when refused (the lease moved, or another holder
    /// published first). A new sequence (epoch) starts when there is no head.
    func publish(_ head: LiveHeadRows, answering requests: [String], owner: String, base: LiveHeadPosition?)
        async throws -> LiveHeadPosition?
    /// Asks the lease holder to refresh now; its next publication answers `request`.
    func requestRefresh(_ request: String) async throws
    /// The entries after `cursor` (``LiveHead/cursor``, or ``LiveLogEntry/cursor``), in order; waits a bounded
    /// while (about a second) for the first one and returns [] if none came. `nil`: from the log's start.
    func read(after cursor: String?) async throws -> [LiveLogEntry]
    /// Takes a token of the table's one refresh bucket for the whole cluster (``RefreshLimit``, shared by every
    /// instance): nil when there was one, else how long until the next. Throws when the store cannot answer (down,
    /// slow, or a channel without a shared bucket): the instance's own bucket decides then, so a failing store never
    /// refuses a viewer.
    func takeRefreshToken(_ limit: RefreshLimit) async throws -> Duration?
    /// How long a POSTed refresh forwarded to the lease holder waits for the head that answers it; past it the POST
    /// gets `502` with an `error` member (the holder may still refresh). ``LiveClusterDefaults/forwardTimeout``
    /// unless the channel says otherwise.
    var forwardTimeout: Duration { get }
}

extension LiveChannel {
    package var forwardTimeout: Duration { LiveClusterDefaults.forwardTimeout }

    /// No shared bucket: each instance's own decides.
    package func takeRefreshToken(_ limit: RefreshLimit) async throws -> Duration? {
        throw LiveChannelWithoutBucket()
    }
}

/// What a ``LiveChannel`` without a cluster-wide refresh bucket throws from ``LiveChannel/takeRefreshToken(_:)``.
package struct LiveChannelWithoutBucket: Error {}

/// The defaults of a live table's cluster. Thread-safe: constants.
package enum LiveClusterDefaults {
    /// How long a forwarded POST waits for the lease holder's answer: 15 s.
    package static let forwardTimeout: Duration = .seconds(15)
}

/// Where a published head stands: its sequence's epoch (a new one when the store lost the sequence: a restart
/// without persistence) and its number in that epoch (1, 2, 3, ...). An instance that sees a number other than the
/// next one, or another epoch, missed entries. Thread-safe: a value.
package struct LiveHeadPosition: Sendable, Hashable {
    package var epoch: String
    package var sequence: UInt64
    package var cursor: String

    package init(epoch: String, sequence: UInt64, cursor: String) {
        self.epoch = epoch
        self.sequence = sequence
        self.cursor = cursor
    }

    /// Whether `next` comes right after this one (no entry missed between).
    func isFollowed(by next: LiveHeadPosition) -> Bool {
        next.epoch == epoch && next.sequence == sequence + 1
    }

    /// Whether this one is `other` or came before it in the same epoch (already applied).
    func isAtOrBefore(_ other: LiveHeadPosition) -> Bool {
        other.epoch == epoch && sequence <= other.sequence
    }
}

/// The rows of a head as the holder rendered them (each instance diffs its own head against them, so the same
/// bytes reach every viewer and nothing is rendered twice), and whether they are the whole list. A value.
package struct LiveHeadRows: Sendable, Equatable {
    package var rows: [LiveRow]
    package var isWholeList: Bool

    package init(rows: [LiveRow], isWholeList: Bool) {
        self.rows = rows
        self.isWholeList = isWholeList
    }
}

/// The head as it stands in the cluster (``LiveChannel/head()``). A value.
package struct LiveHead: Sendable, Equatable {
    package var rows: LiveHeadRows
    package var position: LiveHeadPosition

    package init(rows: LiveHeadRows, position: LiveHeadPosition) {
        self.rows = rows
        self.position = position
    }
}

/// One entry of a table's log. A value.
package enum LiveLogEntry: Sendable, Equatable {
    /// A published head, answering the refresh requests `answers`.
    case head(LiveHead, answers: [String])
    /// An instance asks the lease holder for a refresh (a POST it got while not holding the lease).
    case refreshRequest(String, cursor: String)
    /// An entry this instance cannot read (damaged, or written by a newer version): skipped.
    case unreadable(cursor: String)

    /// Where to read on after this entry.
    package var cursor: String {
        switch self {
        case .head(let head, _): head.position.cursor
        case .refreshRequest(_, let cursor), .unreadable(let cursor): cursor
        }
    }
}
