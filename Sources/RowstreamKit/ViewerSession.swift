import Batches
import Foundation
import HTTPServer
import JSON

/// One viewer's stream of one table: its position (a `BatchesDataSource`) bound to its SSE connection.
///
/// Created on the event loop that owns the connection, by `open(...)`. After that every method is thread-safe:
/// `loadNext` and `reload` come from the POST routes on any loop; batch events arrive on whatever thread finished
/// the load and are written in order (the data source delivers them one at a time).
/// Ownership: the registry holds the session while its stream is open; the stream's close removes it and cancels
/// the load in flight.
final class ViewerSession: Sendable {
    let id: String
    let table: TableBinding
    private let dataSource: BatchesDataSource<JSONValue, PageCursor>

    private init(id: String, table: TableBinding, dataSource: BatchesDataSource<JSONValue, PageCursor>) {
        self.id = id
        self.table = table
        self.dataSource = dataSource
    }

    /// Starts a viewer on `writer`: writes the `session` event, then either resumes after `resume` (waiting for
    /// demand) or starts over and loads the first batch at once.
    /// - Important: call on the writer's event loop, from the response's `open` closure.
    static func open(
        table: TableBinding,
        writer: StreamWriter,
        resume: ResumeToken?,
        resetFirst: Bool,
        registry: SessionRegistry,
        metrics: ServerMetrics,
        batchTimeout: Duration,
        feed: LiveFeed? = nil,
        query: [(name: String, value: String)] = []
    ) {
        let id = SessionID.make()
        let events = StreamEvents(table: table)
        writer.write(events.session(id: id).encoded())
        if case .end = resume?.position {
            // Every row was delivered but `complete` was not: say so and end the stream.
            writer.write(events.complete(total: resume?.offset ?? 0).encoded())
            // A live table's stream stays open for its changes; any other ends.
            if let feed { feed.subscribe(writer) } else { writer.finish() }
            return
        }
        var start: (token: PageCursor, offset: Int)? = nil
        if let resume, case .after(let cursor) = resume.position {
            start = (.cursor(cursor), resume.offset)
        }
        let dataSource = BatchesDataSource<JSONValue, PageCursor>(
            initialToken: .first,
            start: start,
            loadTimeout: batchTimeout,
            loader: table.makeQueryLoader(query),
            onEvent: { event in
                // The head as sent, before it is sent: a refresh that follows diffs against it.
                if case .batch(let rows, 0, _) = event { feed?.observeFirstBatch(rows) }
                writer.write(events.event(for: event).encoded())
                switch event {
                case .batch: metrics.batchesSent.increment()
                case .completed: if feed == nil { writer.finish() }
                default: break
                }
            }
        )
        let session = ViewerSession(id: id, table: table, dataSource: dataSource)
        registry.insert(session)
        feed?.subscribe(writer)
        metrics.sessionsOpened.increment()
        writer.onClose {
            registry.remove(session)
            dataSource.cancel()
        }
        if start == nil {
            if resetFirst { writer.write(events.reset().encoded()) }
            dataSource.loadNext()
        }
    }

    /// Demand from the page: load the next batch (nothing if one is loading or the list is complete; after an
    /// error this retries the failed batch). Thread-safe.
    func loadNext() { dataSource.loadNext() }

    /// Starts over from the first batch: the viewer gets `reset`, then the first rows. Thread-safe.
    func reload() { dataSource.reload() }
}

/// Session ids: 128 random bits in hex, unguessable so one viewer cannot drive another's stream.
enum SessionID {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    static func isWellFormed(_ id: String) -> Bool {
        id.utf8.count == 32 && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
