import HTTPServer
import Locking

/// One viewer's page stream (`GET /pages/NAME/stream`): the sessions of every table on a ``DashboardPage`` share its
/// one connection. Each event goes out with its type prefixed by its table's name (`orders:rows`) and its data
/// unchanged; every event that moves a table's position (`rows`, `reset`, `complete`) carries as its `id:` the
/// page's whole position (``DashboardPageToken``), so the browser's `Last-Event-ID` always covers every table.
///
/// Thread-safe: the positions live in one `Lock`, and an event is written while it is held, so the ids reach
/// the connection in the order they were computed (the last id the viewer saw is the most complete one).
/// Ownership: made by the stream's `open` closure; the sessions' channels keep it until the connection ends.
final class DashboardPageStream: Sendable {
    private struct State {
        /// Each table's own resume token, as of the last event that moved it.
        var resumes: [String: String]
        /// Each table's sort and filter choice (absent: none).
        var queries: [String: [String: String]]
        /// Tables whose part of the stream is not over.
        var open: Set<String>
    }

    let page: String
    let writer: StreamWriter
    private let state: Lock<State>

    /// A stream for the tables `tables` of page `page`, resuming from `token` (its entries are the positions the
    /// tables start from).
    init(page: String, tables: [String], writer: StreamWriter, token: DashboardPageToken?) {
        self.page = page
        self.writer = writer
        let entries = token?.tables ?? [:]
        state = Lock(State(
            resumes: entries.mapValues(\.resume),
            queries: entries.mapValues(\.query).filter { !$0.value.isEmpty },
            open: Set(tables)
        ))
    }

    /// The channel of `table`'s session on this stream.
    func channel(for table: TableBinding) -> any EventChannel { TableChannel(stream: self, table: table.name) }

    /// One table's part of the stream: its session's events, tagged (``send(_:table:)``). Thread-safe: immutable.
    struct TableChannel: EventChannel {
        let stream: DashboardPageStream
        let table: String

        func send(_ event: FramedSSEEvent) { stream.send(event, table: table) }
        func send(_ event: FramedSSEEvent, whenWritten notice: @escaping @Sendable (WrittenBytes) -> Void) {
            stream.send(event, table: table, whenWritten: notice)
        }
        func finish() { stream.finishTable(table) }
        func reopen() { stream.reopenTable(table) }
        func onClose(_ callback: @escaping @Sendable () -> Void) { stream.writer.onClose(callback) }
        func subscribe(_ feed: LiveFeed) { stream.subscribe(feed, table: table) }
        var taskExecutor: (any TaskExecutor)? { stream.writer.taskExecutor }
    }

    /// Sends `table`'s live changes on this stream (tagged by the feed) until the connection ends.
    func subscribe(_ feed: LiveFeed, table: String) {
        // Live changes are of the table as configured: not while the viewer has a choice.
        feed.subscribeTagged(writer, when: { [weak self] in self?.hasChoice(table) == false })
    }

    /// `table`'s session starts over with `query`: the `reset` that follows carries it in its id. Refused (400, and
    /// nothing changes) when the page's choices together would no longer fit its token
    /// (``DashboardPageToken/maxChoicesLength``): a position it could not read back would lose every choice.
    func choose(_ query: QueryChoice.Query, table: String) throws(HTTPError) {
        let choice = Dictionary(query.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
        try state.withLock { (state) throws(HTTPError) in
            var queries = state.queries
            queries[table] = choice.isEmpty ? nil : choice
            let length = DashboardPageToken.choicesLength(page: page, queries)
            guard length <= DashboardPageToken.maxChoicesLength else {
                throw HTTPError(.badRequest, "the searches on this page are too long together to keep its place "
                    + "(\(length) bytes in its position, at most \(DashboardPageToken.maxChoicesLength)): shorten one")
            }
            state.queries = queries
        }
    }

    private func hasChoice(_ table: String) -> Bool { state.withLock { $0.queries[table] != nil } }

    /// Writes `table`'s `event`, tagged, with the page's whole position as its id if it moves the table: a new
    /// head before the event's body as it was framed (the same array, shared when the batch was). `notice`: told
    /// when it is written (metrics).
    func send(_ event: FramedSSEEvent, table: String,
              whenWritten notice: (@Sendable (WrittenBytes) -> Void)? = nil) {
        let type = table + ":" + (event.event ?? "message")
        state.withLock { state in
            var id: String? = nil
            if let own = event.id {
                state.resumes[table] = own
                id = Self.token(page: page, state).encoded()
            }
            let tagged = event.retagged(event: type, id: id)
            if let notice { writer.send(tagged, whenWritten: notice) } else { writer.send(tagged) }
        }
    }

    /// `table`'s part is over; the stream ends once every table's is.
    func finishTable(_ table: String) {
        let allDone = state.withLock { state in
            state.open.remove(table)
            return state.open.isEmpty
        }
        if allDone { writer.finish() }
    }

    /// `table`'s part goes on again (a reload of a finished table): the stream no longer ends when the others
    /// finish, only once this table finishes again too.
    func reopenTable(_ table: String) {
        state.withLock { _ = $0.open.insert(table) }
    }

    private static func token(page: String, _ state: State) -> DashboardPageToken {
        var tables: [String: DashboardPageToken.Entry] = [:]
        for (name, resume) in state.resumes {
            tables[name] = DashboardPageToken.Entry(resume: resume, query: state.queries[name] ?? [:])
        }
        return DashboardPageToken(page: page, tables: tables)
    }
}
