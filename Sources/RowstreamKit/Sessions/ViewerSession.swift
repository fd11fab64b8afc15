import Batches
import Foundation
import HTTPServer
import JSON
import Tables

/// One viewer's stream of one table: its position (a `BatchesDataSource`) bound to its SSE connection.
///
/// Created on the event loop that owns the connection, by `open(...)`. After that every method is thread-safe:
/// `loadNext` and `reload` come from the POST routes on any loop; its data source's events arrive on whatever
/// thread finished the load and are made and written in order by its ``StreamEvents`` (``StreamEvents/deliver(_:with:)``:
/// the data source delivers them one at a time).
/// Ownership: the registry holds the session while its stream is open; the stream's close removes it and cancels
/// the load in flight.
final class ViewerSession: Sendable {
    let id: SessionID
    let table: TableBinding
    private let dataSource: BatchesDataSource<Row, TablePosition>
    /// Where its events go: a reload opens its part of a page's stream again (``EventChannel/reopen()``).
    private let channel: any EventChannel
    /// The sort and filter choice it loads with (the data source holds its loader).
    private let choice: QueryChoice
    /// On a page's stream: told of a new choice before the table starts over, which it may refuse (400: the page's
    /// position could not carry it); nil: a table's own stream, whose choice is in its URL and never changes.
    private let onChoice: (@Sendable (QueryChoice.Query) throws(HTTPError) -> Void)?
    /// The table's histograms (a new choice's loader is timed too).
    private let metrics: TableMetrics
    /// What its rows are loaded for (the viewer who opened it); a new choice loads for the same.
    private let request: RowRequest

    private init(id: SessionID, table: TableBinding, dataSource: BatchesDataSource<Row, TablePosition>,
                 channel: any EventChannel, choice: QueryChoice, onChoice: (@Sendable (QueryChoice.Query) throws(HTTPError) -> Void)?,
                 metrics: TableMetrics, request: RowRequest) {
        self.id = id
        self.request = request
        self.channel = channel
        self.metrics = metrics
        self.table = table
        self.dataSource = dataSource
        self.choice = choice
        self.onChoice = onChoice
    }

    /// Starts a viewer on `writer` (a table's own stream: the writer is its channel): see the `channel` variant.
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
        query: [(name: String, value: String)] = [],
        dialect: StreamDialect? = nil,
        cells: CellMarkup = .classed,
        request: RowRequest = RowRequest()
    ) {
        let channel: any EventChannel = dialect.map { DialectChannel(writer: writer, dialect: $0) } ?? writer
        open(table: table, channel: channel, resume: resume, resetFirst: resetFirst, registry: registry,
             metrics: metrics, batchTimeout: batchTimeout, feed: feed, query: query, onChoice: nil, dialect: dialect,
             cells: cells, request: request)
    }

    /// Starts a viewer on `channel`: writes the `session` event, then either resumes after `resume` (waiting for
    /// demand) or starts over and loads the first batch at once. `onChoice` (a page's stream) lets `reload` take
    /// a new choice. Its rows are loaded for `request` (its viewer; the use is the walk with `query`), their cells
    /// written as `cells` says (a dialect's stay classed).
    /// - Important: call on the stream's event loop, from the response's `open` closure.
    static func open(
        table: TableBinding,
        channel: any EventChannel,
        resume: ResumeToken?,
        resetFirst: Bool,
        registry: SessionRegistry,
        metrics: ServerMetrics,
        batchTimeout: Duration,
        feed: LiveFeed?,
        query: [(name: String, value: String)],
        onChoice: (@Sendable (QueryChoice.Query) throws(HTTPError) -> Void)?,
        dialect: StreamDialect? = nil,
        cells: CellMarkup = .classed,
        request: RowRequest
    ) {
        let id = registry.makeID()
        // Its own total (a page's tables share the request); the viewer's headers only where the table reads them.
        let request = request.forSession(keepingHeaders: table.readsViewerHeaders)
        let total = request.total               // what the events need of it (a word, not the request)
        let events = StreamEvents(table: table, dialect: dialect.map { ($0, id.text) },
                                  cells: dialect == nil ? table.cellForm(cells) : .classed)
        if case .end = resume?.position {
            // Every row was delivered but `complete` was not: say so and end the stream.
            channel.send(events.session(id: id.text, awaitsDemand: false))
            channel.send(events.complete(total: resume?.offset ?? 0))
            // A live table's stream stays open for its changes; any other ends.
            if let feed { channel.subscribe(feed) } else { channel.finish() }
            return
        }
        var start: (token: TablePosition, offset: Int)? = nil
        if let resume, case .after(let cursor) = resume.position {
            start = (.cursor(cursor), resume.offset)
        }
        let choice = QueryChoice(query: query)
        let tableMetrics = metrics.table(table.name)
        let delivery = StreamEvents.Delivery(channel: channel, feed: feed, choice: choice, total: total,
                                             metrics: tableMetrics, batchesSent: metrics.batchesSent)
        let loaders = table.loaders(for: request.using(.viewer(query: query)), timing: tableMetrics.upstream)
        let dataSource = BatchesDataSource<Row, TablePosition>(
            initialToken: .first,
            start: start,
            loadTimeout: batchTimeout,
            loader: loaders.load,
            inMemory: start == nil ? loaders.inMemory : nil,  // only a fresh viewer's first batch asks it
            onEvent: { events.deliver($0, with: delivery) }
        )
        let session = ViewerSession(id: id, table: table, dataSource: dataSource, channel: channel, choice: choice,
                                    onChoice: onChoice, metrics: tableMetrics, request: request)
        // Registered before the page learns its id: a POST right after the `session` event finds it.
        registry.insert(session)
        channel.send(events.session(id: id.text, awaitsDemand: start != nil))
        if let feed { channel.subscribe(feed) }
        metrics.sessionsOpened.increment()
        channel.onClose {
            registry.remove(session)
            dataSource.cancel()
        }
        if start == nil {
            if resetFirst { channel.send(events.reset()) }
            // A config table's first batch starts here, on the stream's loop: a page from memory (a storm of
            // arrivals after the first) goes out before this returns, with no task at all (issue 17).
            // One whose page is being fetched goes on on this loop when the page lands (written at once, no hop).
            if table.firstBatchOnCaller {
                dataSource.loadNextOnCaller(preferring: channel.taskExecutor)
            } else {
                dataSource.loadNext()
            }
        }
    }

    /// Demand from the page: load the next batch (nothing if one is loading or the list is complete; after an
    /// error this retries the failed batch). Thread-safe.
    func loadNext() { dataSource.loadNext() }

    /// Starts over from the first batch: the viewer gets `reset`, then the first rows; a finished table's part of a
    /// page's stream goes on again (the stream ends only once it is complete again). Thread-safe.
    func reload() {
        channel.reopen()
        dataSource.reload()
    }

    /// Whether ``reload(choosing:)`` may change the choice (a session of a page's stream).
    var acceptsChoices: Bool { onChoice != nil }

    /// The current choice.
    var query: QueryChoice.Query { choice.query }

    /// Starts over with another sort and filter choice (a page's table): the page's stream learns it first, so
    /// the `reset` that follows carries it in its resume token. A choice the page's stream refuses (its position
    /// could not carry it) changes nothing and is thrown. Thread-safe.
    func reload(choosing query: QueryChoice.Query) throws(HTTPError) {
        let onChoice = onChoice
        try choice.choose(query, admit: { (query) throws(HTTPError) in try onChoice?(query) }) { query in
            // Another list: the old one's total goes before the new walk starts (which may report its own at once).
            request.total.forgetReported()
            let loader = table.loader(for: request.using(.viewer(query: query)), timing: metrics.upstream)
            channel.reopen()
            dataSource.reload(with: loader)
        }
    }
}

