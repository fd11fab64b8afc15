import Foundation
import HTTPServer
import JSON
import Synchronization

/// The live updates of one table on one server (``LiveUpdates``): the head as last sent, the viewers' writers,
/// and the refreshes. A refresh loads the first batch, diffs it against the head as sent (``LiveDiff``), encodes
/// each change event once and writes the same bytes to every viewer (one ``StreamWriter/broadcast(_:to:)`` per
/// encoding: one job per event loop, not one hop per viewer).
///
/// Thread-safe: the mutable parts live in one `Mutex`; refreshes run one at a time, in order, on Swift's
/// cooperative pool. Ownership: the server holds its feeds and stops them (ending the interval task) at shutdown;
/// a viewer's writer is dropped when its stream closes.
final class LiveFeed: Sendable {
    private struct State {
        /// The head as last sent (nil until a viewer's first batch or the first refresh).
        var head: [LiveRow]?
        var viewers: [ObjectIdentifier: StreamWriter] = [:]
        /// Page streams (``PageStream``): the events tagged with the table's name are broadcast to those that
        /// want them at the time.
        var taggedWriters: [ObjectIdentifier: TaggedWriter] = [:]
        /// The last refresh queued: the next one waits for it.
        var queue: Task<LiveSummary, Never>?
        var ticker: Task<Void, Never>?
    }

    let table: TableBinding
    private let state = Mutex(State())

    init(table: TableBinding) {
        self.table = table
    }

    /// Starts refreshing every `interval` (while anyone watches), if the table has one.
    func start() {
        guard let interval = table.live?.interval else { return }
        let ticker = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self, !Task.isCancelled else { return }
                if self.viewerCount > 0 { _ = await self.refresh() }
            }
        }
        state.withLock { $0.ticker = ticker }
    }

    /// Ends the interval task and any refresh. Idempotent.
    func stop() {
        let (ticker, queue) = state.withLock { state in
            defer { state.ticker = nil; state.queue = nil; state.viewers = [:]; state.taggedWriters = [:] }
            return (state.ticker, state.queue)
        }
        ticker?.cancel()
        queue?.cancel()
    }

    /// Sends this table's live changes to `writer` until its stream closes.
    func subscribe(_ writer: StreamWriter) {
        let id = ObjectIdentifier(writer)
        state.withLock { $0.viewers[id] = writer }
        writer.onClose { [weak self] in self?.state.withLock { _ = $0.viewers.removeValue(forKey: id) } }
    }

    /// Sends this table's live changes, tagged (`NAME:insert`, ...), to `writer` until its stream closes, each
    /// change only if `wants()` says so when it is sent; the changes reach these writers in one broadcast.
    func subscribeTagged(_ writer: StreamWriter, when wants: @escaping @Sendable () -> Bool) {
        let id = ObjectIdentifier(writer)
        state.withLock { $0.taggedWriters[id] = TaggedWriter(writer: writer, wants: wants) }
        writer.onClose { [weak self] in self?.state.withLock { _ = $0.taggedWriters.removeValue(forKey: id) } }
    }

    var viewerCount: Int { state.withLock { $0.viewers.count + $0.taggedWriters.count } }

    /// A viewer was sent the first batch `rows`: it is the head as sent, unless one is known already.
    func observeFirstBatch(_ rows: [JSONValue]) {
        let head = render(rows)
        state.withLock { if $0.head == nil { $0.head = head } }
    }

    /// Re-fetches the head, diffs it and sends the changes to every viewer; after the refreshes queued before it.
    func refresh() async -> LiveSummary {
        let task: Task<LiveSummary, Never> = state.withLock { state in
            let previous = state.queue
            let task = Task { [weak self] () -> LiveSummary in
                _ = await previous?.value
                guard let self else { return LiveSummary() }
                return await self.run()
            }
            state.queue = task
            return task
        }
        return await task.value
    }

    private func run() async -> LiveSummary {
        let loaded: (rows: [JSONValue], next: PageCursor?)
        do {
            loaded = try await table.loadBatch(at: .first, fresh: true)
        } catch {
            return LiveSummary(error: error.message)
        }
        let head = render(loaded.rows)
        let (old, writers, taggedWriters) = state.withLock { state in
            defer { state.head = head }
            return (state.head, Array(state.viewers.values), Array(state.taggedWriters.values))
        }
        let viewers = writers.count + taggedWriters.count
        guard let old else { return LiveSummary(viewers: viewers, baseline: true) }
        let diff = LiveDiff(old: old, new: head, newIsWholeList: loaded.next == nil)
        // Encoded once per form; the same bytes go to every viewer of that form.
        StreamWriter.broadcast(encode(diff), to: writers)
        if !taggedWriters.isEmpty {
            let taggedBytes = encode(diff, prefix: table.name + ":")
            StreamWriter.broadcast(taggedBytes, to: taggedWriters.lazy.filter { $0.wants() }.map(\.writer))
        }
        return LiveSummary(diff: diff, viewers: viewers)
    }

    /// The head's rows, keyed (rows without a key cannot be followed and are left out).
    private func render(_ rows: [JSONValue]) -> [LiveRow] {
        rows.compactMap { row in
            guard let key = row[RowLayout.key], !key.isNull, let text = key.displayText else { return nil }
            var html: [UInt8] = []
            table.renderer.appendRow(row, index: nil, to: &html)
            return LiveRow(key: text, html: html)
        }
    }

    /// The change events, back to back, encoded once: `remove`, `update`, `insert` (docs/PROTOCOL.md).
    private func encode(_ diff: LiveDiff, prefix: String = "") -> [UInt8] {
        var bytes: [UInt8] = []
        if !diff.removed.isEmpty {
            let keys: JSONValue = ["keys": .array(diff.removed.map(JSONValue.string))]
            SSEEvent(event: prefix + "remove", data: String(decoding: keys.serialized(), as: UTF8.self)).encode(into: &bytes)
        }
        if !diff.updated.isEmpty {
            SSEEvent(event: prefix + "update", data: Self.fragment(diff.updated)).encode(into: &bytes)
        }
        if !diff.inserted.isEmpty {
            SSEEvent(event: prefix + "insert", data: Self.fragment(diff.inserted)).encode(into: &bytes)
        }
        return bytes
    }

    private static func fragment(_ rows: [LiveRow]) -> String {
        String(decoding: rows.flatMap(\.html), as: UTF8.self)
    }
}

/// A page stream's writer and whether it wants the table's live changes now (``LiveFeed/subscribeTagged(_:when:)``).
private struct TaggedWriter: Sendable {
    let writer: StreamWriter
    let wants: @Sendable () -> Bool
}

/// What one refresh did: the answer of `POST /tables/NAME/refresh`.
struct LiveSummary: Sendable {
    var inserted = 0, updated = 0, removed = 0, viewers = 0
    /// The first refresh only records the head (nothing was sent before to diff against).
    var baseline = false
    var error: String?

    init(viewers: Int = 0, baseline: Bool = false, error: String? = nil) {
        self.viewers = viewers
        self.baseline = baseline
        self.error = error
    }

    init(diff: LiveDiff, viewers: Int) {
        self.init(viewers: viewers)
        inserted = diff.inserted.count
        updated = diff.updated.count
        removed = diff.removed.count
    }

    var json: JSONValue {
        var body: [String: JSONValue] = [
            "inserted": .int(Int64(inserted)), "updated": .int(Int64(updated)), "removed": .int(Int64(removed)),
            "viewers": .int(Int64(viewers)), "baseline": .bool(baseline),
        ]
        if let error { body["error"] = .string(error) }
        return .object(body)
    }
}
