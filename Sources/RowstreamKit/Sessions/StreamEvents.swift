import Batches
import Foundation
import HTTPServer
import JSON
import Metrics
import Tables

/// A viewer's stream events: each event its data source delivers made into the SSE event the documented contract
/// (docs/PROTOCOL.md) or its dialect (docs/DIALECTS.md) writes, and sent on its channel (``deliver(_:with:)``, the
/// data source's `onEvent`). A batch's rows are rendered straight into the `rows` event's body, framed as `data:`
/// lines as they are written, once for all the viewers who get the very same rows at the same place: the table's
/// ``SharedBatchBodies`` keeps the events made last.
/// A value, safe from any thread: the makers do no I/O (a `rows` event is kept in the table's shared bodies, behind
/// their lock); ``deliver(_:with:)`` runs on whichever thread drains the data source, one event at
/// a time, in order (``BatchesDataSource``).
struct StreamEvents: Sendable {
    let table: TableBinding
    /// The stream's dialect (docs/DIALECTS.md) and its session's id; nil: the v1 events.
    var dialect: (dialect: StreamDialect, session: String)? = nil
    /// How the `rows` events' cells open (``CellMarkup``: the stream's `cells` parameter); a dialect's are classed.
    var cells = CellMarkup.classed

    /// `awaitsDemand`: the session loads on demand from the start (a resumed one); a fresh one loads its first
    /// batch by itself, so a dialect's sentinel asks for nothing until that batch brings an active one.
    func session(id: String, awaitsDemand: Bool = true) -> FramedSSEEvent {
        if let dialect {
            return dialect.dialect.session(table: table.name, next: awaitsDemand ? table.sessionPath(id, "next") : nil)
        }
        return table.sessionEvents.event(id: id, make: wholeSession)
    }

    /// The `session` event made whole: its JSON serialized for `id`.
    func wholeSession(id: String) -> FramedSSEEvent {
        var body: JSONValue = [
            "session": .string(id),
            "table": .string(table.name),
            "title": .string(table.title),
            "columns": table.columnsJSON,
            "batchSize": .int(Int64(table.batchSize)),
            "next": .string(table.sessionPath(id, "next")),
            "reload": .string(table.sessionPath(id, "reload")),
        ]
        if case .object(var members) = body {
            if let sections = table.sectionsJSON { members["sections"] = sections }
            if let live = table.liveJSON { members["live"] = live }
            if table.spec.grid != nil { members["layout"] = "grid" }
            body = .object(members)
        }
        return FramedSSEEvent(SSEEvent(event: "session", data: Self.text(body)))
    }

    /// The SSE event for one batch event; `.completed` is followed by the end of the stream.
    func event(for batchEvent: BatchesEvent<Row, TablePosition>) -> FramedSSEEvent {
        switch batchEvent {
        case .loading(let offset):
            return offset == 0 ? Self.loadingFromStart : Self.loading(offset: offset)
        case .batch(let rows, let offset, let next):
            return self.rows(rows, startIndex: offset, next: next)
        case .completed(let total):
            return complete(total: total)
        case .failed(let failure, _):
            let body: JSONValue = ["message": .string(failure.message), "retryable": .bool(failure.isRetryable)]
            let error = SSEEvent(event: "error", data: Self.text(body))
            guard let dialect else { return FramedSSEEvent(error) }
            // A dialect's page shows the failure in the sentinel's place, with Retry (its `next`), after the v1 event.
            return dialect.dialect.failure(error, table: table.name, columns: table.spec.columns.count,
                                           message: failure.message,
                                           next: failure.isRetryable ? table.sessionPath(dialect.session, "next") : nil)
        case .reset:
            return reset()
        }
    }

    static func loading(offset: Int) -> FramedSSEEvent {
        FramedSSEEvent(SSEEvent(event: "loading", data: text(["offset": .int(Int64(offset))])))
    }

    /// `loading` at offset 0, every fresh viewer's first event after `session`: made once, its head and body one
    /// array each (a gzip-coded stream's blocks of them compressed once too).
    static let loadingFromStart: FramedSSEEvent = {
        let made = loading(offset: 0)
        return FramedSSEEvent(event: made.event, id: made.id, body: made.body).withSharedHead()
    }()

    /// The `rows` event of `rows` at `startIndex` whose next place is `next` (nil: the last batch). A table's own
    /// stream shares it (``SharedBatchBodies``): the event an entry holds when its rows are these very rows at the
    /// same place and its id is this one, else a new head (this viewer's id) before the entry's body, else a body
    /// rendered here, kept for the viewers who come next. A dialect's event is made for its stream alone.
    func rows(_ rows: [Row], startIndex: Int, next: TablePosition?) -> FramedSSEEvent {
        let after = startIndex + rows.count
        let position: ResumeToken.Position
        switch next {
        case .first?: position = .start
        case let next?: position = .after(cursor: next.sealed ?? "")
        case nil: position = .end
        }
        if let dialect {
            return dialect.dialect.rows(
                table: table.name, renderer: table.renderer, rows: rows, startIndex: startIndex,
                next: next == nil ? nil : table.sessionPath(dialect.session, "next"), id: token(after, position))
        }
        let isLast = next == nil
        let sharedBatches = table.sharedBatches(cells)
        let shared = sharedBatches.entry(for: rows, startIndex: startIndex, isLast: isLast)
        if let shared, shared.position == position { return shared.event }
        let body = shared?.event.body ?? rowsBody(rows, startIndex: startIndex, isLast: isLast)
        let event = FramedSSEEvent(event: "rows", id: token(after, position), body: body)
        sharedBatches.keep(event, rows: rows, startIndex: startIndex, isLast: isLast, position: position)
        return event
    }

    /// A `rows` event's body: the rows rendered as `data:` lines (each line break in a cell as
    /// ``SSEEvent/dataLineBreak``), the final batch's marker, and the blank line that ends the event.
    private func rowsBody(_ rows: [Row], startIndex: Int, isLast: Bool) -> [UInt8] {
        var body: [UInt8] = []
        table.renderer(cells).appendRows(rows, startIndex: startIndex, to: &body, lineBreak: SSEEvent.dataLineBreak)
        // The final batch says so, so a page does not ask its finished session for more before `complete`.
        if isLast { body.append(contentsOf: Self.lastBatchMarker) }
        FramedSSEEvent.appendEnd(to: &body)
        return body
    }

    /// Ends the `rows` data of the final batch (docs/PROTOCOL.md, "The last batch"); HTML ignores it.
    static let lastBatchMarker = Array("<!--rs:last-->".utf8)

    func complete(total: Int) -> FramedSSEEvent {
        FramedSSEEvent(SSEEvent(event: "complete", id: token(total, .finished), data: Self.text(["total": .int(Int64(total))])))
    }

    /// `total` `{"total": N}`: how many rows the whole list holds, as the source reported it, sent before the rows of
    /// the batch that reported it (docs/PROTOCOL.md); on a dialect's stream, in its form (``StreamDialect/total(table:total:)``).
    func total(_ total: Int) -> FramedSSEEvent {
        if let dialect { return dialect.dialect.total(table: table.name, total: total) }
        return FramedSSEEvent(SSEEvent(event: "total", data: Self.text(["total": .int(Int64(total))])))
    }

    func reset() -> FramedSSEEvent {
        if let dialect { return dialect.dialect.reset(table: table.name, id: token(0, .start)) }
        return FramedSSEEvent(SSEEvent(event: "reset", id: token(0, .start), data: "{}"))
    }

    private func token(_ offset: Int, _ position: ResumeToken.Position) -> String {
        ResumeToken(table: table.name, offset: offset, position: position).encoded()
    }

    private static func text(_ value: JSONValue) -> String {
        String(decoding: value.serialized(), as: UTF8.self)
    }
}

extension StreamEvents {
    /// Where a session's events go and what they tell on the way: held by its data source's `onEvent`.
    /// Thread-safe: immutable; what it holds is thread-safe.
    struct Delivery: Sendable {
        /// The session's channel: its stream's writer, or its table's part of a page's stream.
        let channel: any EventChannel
        /// A live table's feed (nil: not live): told the head as sent; the stream stays open for its changes.
        let feed: LiveFeed?
        /// The session's sort and filter choice (a live head is the table's as configured only).
        let choice: QueryChoice
        /// The list's total as the source reported it (its session's own).
        let total: RowTotal
        let metrics: TableMetrics
        let batchesSent: Counter
    }

    /// Sends the SSE event of `event` on `delivery`'s channel. A batch: the list's total first when the source
    /// reported a new one, a live table's head observed as sent, the render and delivery timed. `complete` ends a
    /// stream that is not live. Called by the data source, one event at a time, in order.
    func deliver(_ event: BatchesEvent<Row, TablePosition>, with delivery: Delivery) {
        guard case .batch(let rows, let offset, let next) = event else {
            // The new list's total is told again: what its walk reported (a new choice forgot the old one when it
            // was made, ViewerSession.reload(choosing:), so a total reported as the new walk started stays).
            if case .reset = event { delivery.total.forgetTold() }
            delivery.channel.send(self.event(for: event))
            if case .completed = event, delivery.feed == nil { delivery.channel.finish() }
            return
        }
        // The source answered just now (the data source hands a load's rows straight on).
        let answered = ContinuousClock.now
        // The head as sent, before it is sent: a refresh that follows diffs against it (the table as configured only).
        if offset == 0, let feed = delivery.feed, delivery.choice.query.isEmpty { feed.observeFirstBatch(rows) }
        // The list's total, when the source reported a new one: before the rows it counts (issue 28).
        if let reported = delivery.total.takeChange() { delivery.channel.send(total(reported)) }
        let rendering = ContinuousClock.now
        let framed = self.rows(rows, startIndex: offset, next: next)
        // The id holds the sealed next position now; the session keeps only the open token.
        if case .open(let next)? = next { next.forgetSealed() }
        let metrics = delivery.metrics
        metrics.render.observe(since: rendering)
        let bytes = framed.head.count + framed.body.count
        delivery.channel.send(framed) { metrics.batchWritten(bytes: bytes, answered: answered, as: $0) }
        delivery.batchesSent.increment()
    }
}
