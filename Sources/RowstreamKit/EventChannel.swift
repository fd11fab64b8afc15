import HTTPServer

/// Where one viewer session's events go: straight to its own stream (`/tables/NAME/stream`, the bytes the v1
/// protocol documents), or tagged with the table's name into a page's shared stream (``PageStream``).
///
/// Thread-safe: closures over thread-safe writers; any thread may call them.
struct EventChannel: Sendable {
    /// Writes one event of this table.
    let send: @Sendable (SSEEvent) -> Void
    /// This table's part of the stream is over (its list is complete): a table's own stream ends; a page's
    /// stream ends once every table on it is over.
    let finish: @Sendable () -> Void
    /// Registers a callback for the end of the connection.
    let onClose: @Sendable (@escaping @Sendable () -> Void) -> Void
    /// Sends a live table's change events on this channel until the connection ends.
    let subscribe: @Sendable (LiveFeed) -> Void

    /// The channel of a table's own stream: events as they are, on `writer`.
    static func direct(_ writer: StreamWriter) -> EventChannel {
        EventChannel(
            send: { writer.write($0.encoded()) },
            finish: { writer.finish() },
            onClose: { writer.onClose($0) },
            subscribe: { $0.subscribe(writer) }
        )
    }
}
