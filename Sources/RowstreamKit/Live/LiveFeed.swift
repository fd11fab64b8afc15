import Foundation
import HTTPServer
import JSON
import Locking
import Tables

/// The live updates of one table on one server (``LiveUpdates``): the head as last sent, the viewers' writers,
/// and the refreshes. A refresh loads the first batch, diffs it against the head as sent (``LiveDiff``), encodes
/// each change event once and writes the same bytes to every viewer (one ``StreamWriter/broadcast(_:to:)`` per
/// encoding: one job per event loop, not one hop per viewer).
///
/// In a cluster (a ``LiveChannel``: docs/SCALING.md, "Live tables across instances") only the instance holding the
/// table's lease refreshes; it publishes each new head once, and every instance, the holder too, diffs the heads it
/// reads from the channel against its own and broadcasts the changes to its viewers (LiveFeed+Cluster.swift).
/// While the channel is unreachable each instance refreshes on its own, as a single process does.
///
/// Thread-safe: the mutable parts live in one `Lock`; refreshes run one at a time on Swift's cooperative pool,
/// as decided by a ``RefreshStateMachine`` under that lock (tasks are started, cancelled and resumed outside it). Ownership: the server holds its feeds and stops them (ending the interval task) at shutdown;
/// a viewer's writer is dropped when its stream closes.
final class LiveFeed: Sendable {
    /// Touched only by LiveFeed's own files, under ``state``'s lock.
    struct State {
        /// The head as last sent (nil until a viewer's first batch or the first refresh).
        var head: [LiveRow]?
        var viewers: [ObjectIdentifier: StreamWriter] = [:]
        /// Viewers of a dialect's stream (docs/DIALECTS.md): their changes are encoded once per dialect.
        var dialectViewers: [ObjectIdentifier: (writer: StreamWriter, dialect: StreamDialect)] = [:]
        /// Page streams (``DashboardPageStream``): the events tagged with the table's name are broadcast to those that
        /// want them at the time.
        var taggedWriters: [ObjectIdentifier: TaggedWriter] = [:]
        /// Which refresh runs, which is queued, who waits, the rate limit (``RefreshStateMachine``).
        var machine: RefreshStateMachine
        var waiters: [RefreshStateMachine.WaiterID: WaiterSlot] = [:]
        var lastWaiter: UInt64 = 0
        /// The task of the running refresh (cancelled when everyone waiting for it left).
        var runs: [RefreshStateMachine.RunID: Task<Void, Never>] = [:]
        var ticker: Task<Void, Never>?
        var stopped = false
        /// This instance's place in the cluster (unused without a channel).
        var cluster = LiveMembership()
        /// The task reading the channel's log.
        var follower: Task<Void, Never>?
    }

    /// One caller of ``refresh(isTicker:)``: numbered before it asks, so that it can leave at any moment.
    enum WaiterSlot {
        case arriving
        case waiting(CheckedContinuation<RefreshOutcome, Never>)
        /// Left before it asked: it asks nothing.
        case left
    }

    let table: TableBinding
    let state: Lock<State>
    /// The cluster's channel for this table (nil: this instance alone).
    let channel: (any LiveChannel)?
    /// This instance's name as a lease holder (random: unique per feed).
    let owner: String
    /// Refreshes run on this instance alone while the channel was unreachable; heads that followed a gap.
    let counters = LiveCounters()
    /// The feed of one identity of a partitioned table (``LivePartitions``): the viewer its loads run as (its
    /// forwarded name, header or cookie); nil for a table's one feed.
    let viewer: Viewer?
    /// Where its refreshes' loads report failures (the server's ``ServerConfiguration/logger``).
    let logger: any RowstreamLogger
    /// Called (outside the lock) when the last viewer of a partition's feed leaves; nil for a table's one feed.
    private let onIdle: (@Sendable (LiveFeed) -> Void)?

    /// The feed of `table`; with `viewer`, of that viewer's identity only (``LivePartitions``: never on a channel),
    /// `onIdle` told when its last viewer leaves; its loads' failures go to `logger`.
    init(table: TableBinding, channel: (any LiveChannel)? = nil, viewer: Viewer? = nil,
         logger: any RowstreamLogger = StandardErrorLogger(), onIdle: (@Sendable (LiveFeed) -> Void)? = nil) {
        self.table = table
        self.logger = logger
        self.channel = channel
        self.viewer = viewer
        self.onIdle = onIdle
        owner = UUID().uuidString
        state = Lock(State(machine: RefreshStateMachine(limit: table.live?.limit ?? .standard)))
    }

    /// Starts refreshing every `interval` (while anyone watches), if the table has one. The ticker's refreshes
    /// share the single flight with the POSTed ones and are not rate-limited.
    /// In a cluster, also follows the channel's log (``follow(_:)``) from now on.
    func start() {
        let ticker = table.live?.interval.map { interval in
            Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard let self, !Task.isCancelled else { return }
                    await self.tick()
                }
            }
        }
        let follower = channel.map { channel in
            Task { [weak self] in
                guard let self else { return }
                await self.follow(channel)
            }
        }
        // Stopped already (a partition retired, or the server stopping, before it started): nothing runs.
        let late = state.withLock { state -> Bool in
            guard !state.stopped else { return true }
            state.ticker = ticker
            state.follower = follower
            return false
        }
        if late { ticker?.cancel(); follower?.cancel() }
    }

    /// One interval's work: refresh while anyone watches here, unless another instance holds the table's lease
    /// (then it refreshes for the cluster); with nobody watching here, give the lease up.
    func tick() async {
        guard viewerCount > 0 else { return await stepDown() }
        if case .follower = await role() { return }
        _ = await refresh(isTicker: true)
    }

    /// Ends the interval task and any refresh; every waiter gets `.abandoned`. In a cluster, stops following and
    /// gives the lease up (in the returned task, so that another instance takes it at its next tick). Idempotent.
    @discardableResult
    func stop() -> Task<Void, Never>? {
        let (tasks, continuations, forwarded) = state.withLock { state in
            defer {
                state.ticker = nil; state.follower = nil; state.runs = [:]; state.viewers = [:]; state.dialectViewers = [:]; state.taggedWriters = [:]
                state.stopped = true
            }
            _ = state.machine.stop()
            let continuations = state.waiters.values.compactMap { slot in
                if case .waiting(let continuation) = slot { continuation } else { nil }
            }
            state.waiters = [:]
            let tasks = [state.ticker, state.follower].compactMap { $0 } + Array(state.runs.values)
            return (tasks, continuations, state.cluster.takeForwarded())
        }
        tasks.forEach { $0.cancel() }
        continuations.forEach { $0.resume(returning: .abandoned) }
        forwarded.forEach { $0.asking?.cancel(); $0.continuation.resume(returning: nil) }
        guard let channel else { return nil }
        return Task { [owner] in try? await channel.releaseLease(owner) }
    }

    /// Sends this table's live changes to `writer` until its stream closes.
    func subscribe(_ writer: StreamWriter) {
        let id = ObjectIdentifier(writer)
        guard admit(writer, { $0.viewers[id] = writer }) else { return }
        writer.onClose { [weak self] in self?.leave { _ = $0.viewers.removeValue(forKey: id) } }
    }

    /// Sends this table's live changes, in `dialect`'s events, to `writer` until its stream closes.
    func subscribe(_ writer: StreamWriter, dialect: StreamDialect) {
        let id = ObjectIdentifier(writer)
        guard admit(writer, { $0.dialectViewers[id] = (writer, dialect) }) else { return }
        writer.onClose { [weak self] in self?.leave { _ = $0.dialectViewers.removeValue(forKey: id) } }
    }

    /// Sends this table's live changes, tagged (`NAME:insert`, ...), to `writer` until its stream closes, each
    /// change only if `wants()` says so when it is sent; the changes reach these writers in one broadcast.
    func subscribeTagged(_ writer: StreamWriter, when wants: @escaping @Sendable () -> Bool) {
        let id = ObjectIdentifier(writer)
        guard admit(writer, { $0.taggedWriters[id] = TaggedWriter(writer: writer, wants: wants) }) else { return }
        writer.onClose { [weak self] in self?.leave { _ = $0.taggedWriters.removeValue(forKey: id) } }
    }

    /// Adds a viewer with `add`; false if this is a partition's feed that was stopped (its last viewer left between
    /// its hand-out and now): then `writer`'s stream ends, and its client reconnects with its resume token to a feed
    /// that runs. A table's one feed takes viewers even when stopped (the server is shutting down).
    private func admit(_ writer: StreamWriter, _ add: (inout State) -> Void) -> Bool {
        let admitted = state.withLock { state -> Bool in
            if state.stopped, onIdle != nil { return false }
            add(&state)
            return true
        }
        if !admitted { writer.finish() }
        return admitted
    }

    /// Removes a viewer with `remove`; tells ``onIdle`` if it was a partition's last.
    private func leave(_ remove: (inout State) -> Void) {
        let idle = state.withLock { state -> Bool in
            remove(&state)
            return state.viewers.isEmpty && state.dialectViewers.isEmpty && state.taggedWriters.isEmpty && !state.stopped
        }
        if idle { onIdle?(self) }
    }

    var viewerCount: Int { state.withLock { $0.viewers.count + $0.dialectViewers.count + $0.taggedWriters.count } }

    /// Callers waiting for a refresh (running or queued): `rowstream_live_refresh_waiting`.
    var waitingCount: Int {
        state.withLock { $0.waiters.values.count { if case .waiting = $0 { true } else { false } } }
    }

    /// A viewer was sent the first batch `rows`: it is the head as sent, unless one is known already.
    func observeFirstBatch(_ rows: [Row]) {
        let head = render(rows)
        state.withLock { if $0.head == nil { $0.head = head } }
    }

    /// The head as the upstream has it now, rendered: a refresh's load (past any cache), for the feed's ``viewer``
    /// (a partition's: with what that viewer's requests forward upstream; a table's one feed: ``Viewer/nobody``).
    func loadHead() async throws(LoadFailure) -> LiveHeadRows {
        let request = RowRequest(use: .fresh, viewer: viewer ?? .nobody, logger: logger)
        let batch = try await table.loadBatch(at: .first, for: request)
        return LiveHeadRows(rows: render(batch.rows), isWholeList: batch.next == nil)
    }

    /// Makes `new` the head as sent and sends its difference from the previous one to every viewer (nothing for the
    /// first: it is the baseline). With a `position` (a head read from the cluster's log): nil, and nothing sent, if
    /// this instance is at that position or past it already; a position that does not follow the last one is a gap
    /// (counted: diffing against the whole head re-syncs it, whatever was missed).
    ///
    /// A head from the log that another instance loaded (its refresh put the page it read in the shared store, not in
    /// this instance's memory) first drops this instance's copy of the table's first page
    /// (``TableBinding/dropCachedHead``), then the changes go out: a viewer who opens a stream after that reads the
    /// refreshed page (and gets no change it already has); one who opened before it gets the change, whichever page
    /// its first batch came from (an `insert` of a key shown is an update: its rows end the same). The holder's own
    /// head (``LiveMembership/ownHead``) drops nothing: its refresh put the page in this cache.
    func advance(to new: LiveHeadRows, at position: LiveHeadPosition? = nil) -> LiveSummary? {
        typealias Taken = (old: [LiveRow]?, writers: [StreamWriter], tagged: [TaggedWriter],
                           dialectViewers: [(writer: StreamWriter, dialect: StreamDialect)], drops: Bool)
        let taken = state.withLock { state -> Taken? in
            var drops = false
            if let position {
                if let current = state.cluster.position {
                    if position.isAtOrBefore(current) { return nil }
                    if !current.isFollowed(by: position) { counters.resyncs.add(1, ordering: .relaxed) }
                }
                state.cluster.position = position
                // The own head counts once: the page read after any other head's drop may be that head's.
                drops = new != state.cluster.ownHead
                state.cluster.ownHead = nil
            }
            defer { state.head = new.rows }
            return (state.head, Array(state.viewers.values), Array(state.taggedWriters.values),
                    Array(state.dialectViewers.values), drops)
        }
        guard let (old, writers, taggedWriters, dialectViewers, drops) = taken else { return nil }
        // Before anything is sent (outside the lock: the page cache's lock is its own).
        if drops { table.dropCachedHead?() }
        let viewers = writers.count + taggedWriters.count + dialectViewers.count
        guard let old else { return LiveSummary(viewers: viewers, baseline: true) }
        let diff = LiveDiff(old: old, new: new.rows, newIsWholeList: new.isWholeList)
        guard !diff.isEmpty else {
            // No change: `fresh` tells the viewers their rows are current as of now (docs/PROTOCOL.md); not to dialects.
            StreamWriter.broadcast(fresh(), to: writers)
            StreamWriter.broadcast(fresh(prefix: table.name + ":"), to: taggedWriters.lazy.filter { $0.wants() }.map(\.writer))
            return LiveSummary(diff: diff, viewers: viewers)
        }
        // Encoded once per form; the same bytes go to every viewer of that form.
        StreamWriter.broadcast(encode(diff), to: writers)
        if !taggedWriters.isEmpty {
            let taggedBytes = encode(diff, prefix: table.name + ":")
            StreamWriter.broadcast(taggedBytes, to: taggedWriters.lazy.filter { $0.wants() }.map(\.writer))
        }
        for dialect in StreamDialect.allCases {
            let audience = dialectViewers.filter { $0.dialect == dialect }.map(\.writer)
            if !audience.isEmpty { StreamWriter.broadcast(dialect.encode(diff, table: table.name), to: audience) }
        }
        return LiveSummary(diff: diff, viewers: viewers)
    }

    /// The head's rows, keyed (rows without a key cannot be followed and are left out).
    private func render(_ rows: [Row]) -> [LiveRow] {
        rows.compactMap { row in
            guard let text = row.key else { return nil }
            var html: [UInt8] = []
            table.renderer.appendRow(row, index: nil, to: &html, lineBreak: SSEEvent.dataLineBreak)
            return LiveRow(key: text, html: html)
        }
    }

    /// The `fresh` event: a refresh found the head unchanged.
    private func fresh(prefix: String = "") -> [UInt8] {
        var bytes: [UInt8] = []
        SSEEvent(event: prefix + "fresh", data: "{}").encode(into: &bytes)
        return bytes
    }

    /// The change events, back to back, encoded once: `remove`, `update`, `insert` (docs/PROTOCOL.md). The rows'
    /// HTML was rendered with its line breaks framed as `data:` lines (``render(_:)``), so it goes in as it is.
    private func encode(_ diff: LiveDiff, prefix: String = "") -> [UInt8] {
        var bytes: [UInt8] = []
        if !diff.removed.isEmpty {
            let keys: JSONValue = ["keys": .array(diff.removed.map(JSONValue.string))]
            SSEEvent(event: prefix + "remove", data: String(decoding: keys.serialized(), as: UTF8.self)).encode(into: &bytes)
        }
        for (type, rows) in [("update", diff.updated), ("insert", diff.inserted)] where !rows.isEmpty {
            FramedSSEEvent.append(event: prefix + type, to: &bytes) { data in
                for row in rows { data += row.html }
            }
        }
        return bytes
    }
}

/// A page stream's writer and whether it wants the table's live changes now (``LiveFeed/subscribeTagged(_:when:)``).
struct TaggedWriter: Sendable {
    let writer: StreamWriter
    let wants: @Sendable () -> Bool
}
