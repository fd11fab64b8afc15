import Batches
import HTTPServer
import JSON
import Tables

/// Turns a viewer's batch events into SSE events on the wire: the documented contract (docs/PROTOCOL.md) in one
/// place. A batch's rows are rendered straight into the event's body, framed as `data:` lines as they are written,
/// once for all the viewers who get the very same rows at the same place (``SharedBatchBodies``).
/// A pure value: no I/O, safe from any thread.
struct StreamEvents: Sendable {
    let table: TableBinding
    /// The stream's dialect (docs/DIALECTS.md) and its session's id; nil: the v1 events.
    var dialect: (dialect: StreamDialect, session: String)? = nil

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
            return FramedSSEEvent(SSEEvent(event: "loading", data: Self.text(["offset": .int(Int64(offset))])))
        case .batch(let items, let offset, let next):
            let after = offset + items.count
            let position: ResumeToken.Position
            switch next {
            case .first?: position = .start
            case let next?: position = .after(cursor: next.sealed ?? "")
            case nil: position = .end
            }
            if let dialect {
                return dialect.dialect.rows(
                    table: table.name, renderer: table.renderer, rows: items, startIndex: offset,
                    next: next == nil ? nil : table.sessionPath(dialect.session, "next"), id: token(after, position))
            }
            // Rendered once for every viewer who gets these very rows here (SharedBatchBodies), each with its own id.
            return table.sharedBatches.event(rows: items, startIndex: offset, isLast: next == nil, position: position,
                                             body: {
                FramedSSEEvent.body { data in
                    table.renderer.appendRows(items, startIndex: offset, to: &data, lineBreak: SSEEvent.dataLineBreak)
                    // The final batch says so, so a page does not ask its finished session for more before `complete`.
                    if next == nil { data.append(contentsOf: Self.lastBatchMarker) }
                }
            }, id: { token(after, position) })
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

    /// Ends the `rows` data of the final batch (docs/PROTOCOL.md, "The last batch"); HTML ignores it.
    static let lastBatchMarker = Array("<!--rs:last-->".utf8)

    func complete(total: Int) -> FramedSSEEvent {
        FramedSSEEvent(SSEEvent(event: "complete", id: token(total, .finished), data: Self.text(["total": .int(Int64(total))])))
    }

    /// `total` `{"total": N}`: how many rows the whole list holds, as the source reported it, sent before the rows of
    /// the batch that reported it (docs/PROTOCOL.md); nil on a dialect's stream (its pages count no totals).
    func total(_ total: Int) -> FramedSSEEvent? {
        guard dialect == nil else { return nil }
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
