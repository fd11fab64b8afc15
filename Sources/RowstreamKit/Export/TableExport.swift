import Tables

/// "Download all rows" of one table (docs/PROTOCOL.md, "Export"): walks the table from its first batch with a loader
/// of its own, as a viewer's stream does (the same pagination, dedup window, page cache and typed rows: the table's
/// ``RowPipeline``), and writes each batch as it arrives (``ExportEncoder``), then forgets it.
///
/// Memory is bounded by one batch and one chunk: rows are encoded into a buffer handed to `write` at the end of each
/// batch and whenever it passes ``chunkBytes``, and the next batch is loaded only once `write` returned, so a client that reads slowly (the
/// server's `write` waits for room on the connection) slows the walk instead of filling memory.
///
/// The file stops early with a last line saying why (``ExportEncoder/appendStop(_:rows:limit:to:)``) when the row
/// limit is reached with rows left, or when a batch fails (an upstream error midway).
///
/// Thread-safe: an immutable value; ``run(_:write:)`` runs on the cooperative pool and never blocks.
struct TableExport: Sendable {
    let encoder: ExportEncoder
    /// Most rows written; past them the file ends with the limit's line.
    let maxRows: Int
    /// The bytes encoded before they are handed to `write` (well under the connection's write-buffer limit).
    var chunkBytes = 64 * 1024

    /// The export of `table` in `format`, up to the table's ``TableBinding/exportMaxRows``.
    init(table: TableBinding, format: ExportFormat) {
        encoder = ExportEncoder(spec: table.spec, format: format)
        maxRows = table.exportMaxRows
    }

    /// What an export did.
    struct Outcome: Sendable, Equatable {
        /// Rows written.
        var rows = 0
        /// Most rows held at once (loaded and not yet encoded): one batch at most.
        var peakRowsHeld = 0
        /// Why it stopped before the end (nil: complete, or the client left).
        var stopped: String?
    }

    /// Walks `load` from the first batch, handing the file to `write` in pieces; stops when `write` returns false
    /// (the client left) or the task is cancelled.
    func run(_ load: TableBinding.RowLoader, write: ([UInt8]) async -> Bool) async -> Outcome {
        var outcome = Outcome()
        var out = encoder.header()
        var position = TablePosition.first
        walk: while !Task.isCancelled {
            let rows: [Row]
            let next: TablePosition?
            do {
                switch try await load(position) {
                case .items(let items, let after): (rows, next) = (items, after)
                case .completed(let items): (rows, next) = (items, nil)
                }
            } catch {
                guard !Task.isCancelled else { return outcome }
                let failure = LoadFailure(error)
                outcome.stopped = failure.message
                encoder.appendStop(failure.message, rows: outcome.rows, to: &out)
                break walk
            }
            outcome.peakRowsHeld = max(outcome.peakRowsHeld, rows.count)
            for row in rows {
                guard outcome.rows < maxRows else {
                    let reason = "the row limit of \(maxRows) rows was reached; the table has more rows."
                    outcome.stopped = reason
                    encoder.appendStop(reason, rows: outcome.rows, limit: maxRows, to: &out)
                    break walk
                }
                encoder.append(row, to: &out)
                outcome.rows += 1
                if out.count >= chunkBytes {
                    guard await write(out) else { return outcome }
                    out = []
                }
            }
            // Each batch goes out as it arrives (the page shows the rows exported), then is forgotten.
            if !out.isEmpty {
                guard await write(out) else { return outcome }
                out = []
            }
            guard let next else { break }
            position = next
        }
        if !out.isEmpty, !Task.isCancelled { _ = await write(out) }
        return outcome
    }
}
