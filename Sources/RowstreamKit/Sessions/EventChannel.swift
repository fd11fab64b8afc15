import HTTPServer

/// Where one viewer session's events go: straight to its own stream (`/tables/NAME/stream`, the bytes the v1
/// protocol documents), or tagged with the table's name into a page's shared stream (``DashboardPageStream``).
///
/// A value of two pointers at most (no closures to allocate per viewer). Thread-safe: it holds thread-safe
/// writers and streams; any thread may call it.
enum EventChannel: Sendable {
    /// A table's own stream: events as they are, on the writer.
    case direct(StreamWriter)
    /// Table `table`'s part of a page's stream.
    case page(DashboardPageStream, table: String)

    /// Writes one event of this table: on its own stream the bytes as they were framed, on a page's stream tagged.
    func send(_ event: FramedSSEEvent) {
        switch self {
        case .direct(let writer): writer.write(event.bytes)
        case .page(let stream, let table): stream.send(event, table: table)
        }
    }

    /// This table's part of the stream is over (its list is complete): a table's own stream ends; a page's
    /// stream ends once every table on it is over.
    func finish() {
        switch self {
        case .direct(let writer): writer.finish()
        case .page(let stream, let table): stream.finishTable(table)
        }
    }

    /// Registers a callback for the end of the connection.
    func onClose(_ callback: @escaping @Sendable () -> Void) {
        switch self {
        case .direct(let writer): writer.onClose(callback)
        case .page(let stream, _): stream.writer.onClose(callback)
        }
    }

    /// Sends a live table's change events on this channel until the connection ends.
    func subscribe(_ feed: LiveFeed) {
        switch self {
        case .direct(let writer): feed.subscribe(writer)
        case .page(let stream, let table): stream.subscribe(feed, table: table)
        }
    }
}
