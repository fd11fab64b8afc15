import HTTPServer

/// Where one viewer session's events go: a table's own stream (`/tables/NAME/stream`, the bytes the v1 protocol
/// documents) is its connection's `StreamWriter` itself, so a session's events go straight to the writer; a table
/// on a page's shared stream writes through ``DashboardPageStream/TableChannel`` (tagged with the table's name).
///
/// Thread-safe: the conformers hold thread-safe writers and streams; any thread may call them.
protocol EventChannel: Sendable {
    /// Writes one event of this table.
    func send(_ event: FramedSSEEvent)

    /// Writes one event of this table and calls `notice` once it is handed to the socket
    /// (``StreamWriter/write(_:whenWritten:)``), for metrics.
    func send(_ event: FramedSSEEvent, whenWritten notice: @escaping @Sendable (WrittenBytes) -> Void)

    /// This table's part of the stream is over (its list is complete): a table's own stream ends; a page's
    /// stream ends once every table on it is over.
    func finish()

    /// This table's part of the stream goes on again after ``finish()``: a reload of a finished table on a page
    /// (its new batches and `complete` follow). A table's own stream, which ``finish()`` ended, has nothing to do.
    func reopen()

    /// Registers a callback for the end of the connection.
    func onClose(_ callback: @escaping @Sendable () -> Void)

    /// Sends a live table's change events on this channel until the connection ends.
    func subscribe(_ feed: LiveFeed)

    /// Its stream's loop as a task executor (nil: none, a test's sink): where a first batch started on the loop
    /// goes on after it suspends (``StreamWriter/taskExecutor``).
    var taskExecutor: (any TaskExecutor)? { get }
}

/// A table's own stream: the events as they were framed (`send`), `finish` and `onClose` are the writer's own.
extension StreamWriter: EventChannel {
    func subscribe(_ feed: LiveFeed) { feed.subscribe(self) }
    func reopen() {}
}

/// A table's own stream in a dialect (docs/DIALECTS.md): the writer's own events, and the live changes framed in
/// the dialect. An htmx stream stays open after `complete`: htmx's SSE extension answers a closed `EventSource` (the
/// `204` of a finished list's reconnect) with a new one, without `Last-Event-ID`, which would start the list over.
struct DialectChannel: EventChannel {
    let writer: StreamWriter
    let dialect: StreamDialect

    func send(_ event: FramedSSEEvent) { writer.send(event) }
    func send(_ event: FramedSSEEvent, whenWritten notice: @escaping @Sendable (WrittenBytes) -> Void) {
        writer.send(event, whenWritten: notice)
    }
    var taskExecutor: (any TaskExecutor)? { writer.taskExecutor }
    func finish() { if !dialect.staysOpen { writer.finish() } }
    func onClose(_ callback: @escaping @Sendable () -> Void) { writer.onClose(callback) }
    func subscribe(_ feed: LiveFeed) { feed.subscribe(writer, dialect: dialect) }
    func reopen() {}
}
