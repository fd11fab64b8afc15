import JSON

/// Renders a `TableSpec`'s typed ``Row``s to HTML bytes: each row and its cells, each cell formatted by its column's
/// format and escaped in one pass, straight into the caller's buffer (skeleton rows: TableRenderer+Skeleton.swift,
/// the table shell: +Shell, section rows: +Sections).
/// Fixed markup (cell openings, the skeleton row) is built once in `init`; per-row work only formats
/// and escapes values.
///
/// Immutable and Sendable: safe from any thread.
public struct TableRenderer: Sendable {
    /// The spec this renderer was built from.
    public let spec: TableSpec
    /// The markup before each column's content, back to back: `</td>` (but before the first column), then
    /// `<td class="rs-c rs-FORMAT">` (and a card's label). One copy per cell.
    private var cellMarkup: [UInt8]
    /// Per column: what a row needs of it, in one flat array of plain values.
    private var slots: [CellSlot]

    /// A column as a row writes it: where its markup ends in ``cellMarkup`` (it starts where the column before
    /// ends), its format, and a number column's fixed decimals (``Column/decimals``; nil: as the upstream wrote it).
    private struct CellSlot: Sendable {
        var markupEnd: Int
        var format: ColumnFormat
        var decimals: Int?
        /// Bar, sparkline or progress: drawn by ``appendChart`` (TableRenderer+Charts.swift).
        var isChart: Bool
    }
    /// One complete skeleton row.
    let skeleton: [UInt8]
    /// Whether rows are cards (``TableSpec/grid``), kept as a flag: testing the optional spec per row copied it.
    private let isCard: Bool
    /// The detail template's fixed markup (``DetailSpec``); nil: rows carry no detail template.
    private let detailMarkup: DetailMarkup?
    /// With a value, each data row also gets `id="PREFIX` and its escaped key (``RowElementID``) `"`.
    private var rowIDPrefix: [UInt8]?

    /// Builds a renderer; precomputes the per-column markup.
    public init(spec: TableSpec) {
        self.spec = spec
        let openings = spec.columns.map { column in
            var bytes: [UInt8] = []
            bytes.append("<td class=\"rs-c rs-")
            bytes.append(contentsOf: column.format.className.utf8)
            if spec.grid != nil {   // cards label their fields
                bytes.append("\" data-label=\"")
                HTMLEscaping.appendEscaped(column.title, to: &bytes)
            }
            bytes.append("\">")
            return bytes
        }
        (cellMarkup, slots) = Self.cells(spec.columns, openings: openings)
        isCard = spec.grid != nil
        skeleton = Self.skeletonRow(cellOpenings: openings, formats: spec.columns.map(\.format), isCard: isCard)
        detailMarkup = DetailMarkup(spec.detail)
    }

    /// The cell markup of `openings` (one per column) and each column's slot in it.
    private static func cells(_ columns: [Column], openings: [[UInt8]]) -> (markup: [UInt8], slots: [CellSlot]) {
        var markup: [UInt8] = []
        let slots = zip(columns, openings).map { column, opening in
            if !markup.isEmpty { markup.append("</td>") }
            markup.append(contentsOf: opening)
            return CellSlot(markupEnd: markup.count, format: column.format, decimals: column.decimals,
                            isChart: column.format.isChart)
        }
        return (markup, slots)
    }

    /// This renderer, its data rows' cells written in `form` (``CellMarkup``): bare cells open with `<td>`, without
    /// their classes, which a page puts back from its skeleton row (its cells carry them). A card's cells stay
    /// classed (they carry their labels too), and so do the skeleton and everything else the renderer writes.
    public func withCells(_ form: CellMarkup) -> TableRenderer {
        guard form == .bare, !isCard else { return self }
        var renderer = self
        let openings = spec.columns.map { _ in Array("<td>".utf8) }
        (renderer.cellMarkup, renderer.slots) = Self.cells(spec.columns, openings: openings)
        return renderer
    }

    /// This renderer, with each data row's `id` the table's ``RowElementID/row(table:key:)`` (the key, or the index
    /// when the row has none); nothing else changes.
    public func withRowIDs(table: String) -> TableRenderer {
        var renderer = self
        renderer.rowIDPrefix = Array(RowElementID.prefix(table: table).utf8)
        return renderer
    }

    /// Appends one `<tr data-key="KEY" data-index="N">` per row (N = startIndex + i) with one `<td>`
    /// per column, no newlines between rows. Missing cells are empty; everything is escaped.
    /// The key is the row's key, or the index when it has none.
    /// A sectioned table (``TableSpec/sections``) also writes `data-section` (and `data-value` for a sum footer)
    /// on each row, and a section header row first and before each row whose section differs from the row
    /// before it (see ``sectionHeader(_:)``).
    /// Line breaks (only cell text holds any) are written as `lineBreak`: `SSEEvent.dataLineBreak` frames the rows
    /// as an SSE event's `data:` lines while they are written.
    public func appendRows(_ rows: [Row], startIndex: Int, to buffer: inout [UInt8], lineBreak: StaticString = "\n") {
        var writer = ByteWriter(capacity: estimatedBytes(rows: rows.count), lineBreak: lineBreak)
        appendRows(rows, startIndex: startIndex, to: &writer)
        writer.copy(to: &buffer)
    }

    /// One `<tr>` for `row` at `index`, without any section header row. A nil `index` (live updates,
    /// docs/PROTOCOL.md) writes no `data-index`, and a missing key as `0`. Line breaks as in ``appendRows``.
    public func appendRow(_ row: Row, index: Int?, to buffer: inout [UInt8], lineBreak: StaticString = "\n") {
        var writer = ByteWriter(capacity: estimatedBytes(rows: 1), lineBreak: lineBreak)
        appendRow(row, index: index, to: &writer)
        writer.copy(to: &buffer)
    }

    /// A first guess at the bytes of `rows` rows (the writer grows past it if needed).
    private func estimatedBytes(rows: Int) -> Int {
        rows * (128 + slots.count * 96)
    }

    func appendRows(_ rows: [Row], startIndex: Int, to out: inout ByteWriter) {
        // Each row is read where the array holds it. Passed by value it would be copied (its cells and strings
        // retained): rendering a row writes through raw pointers, which Swift cannot tell apart from the array's
        // storage, and its rare cells may release objects (TableRenderer+Cells.swift).
        let ranges = barRanges(rows)   // bar columns without a range: this batch's (TableRenderer+Charts.swift)
        rows.withUnsafeBufferPointer { rows in
            guard spec.sections != nil else {
                for offset in rows.indices {
                    appendRow(at: rows.baseAddress! + offset, index: startIndex + offset, ranges: ranges, to: &out)
                }
                return
            }
            var previousSection: String? = nil
            for offset in rows.indices {
                let row = rows.baseAddress! + offset
                if row.pointee.section != previousSection { appendSectionHeader(row.pointee.section, to: &out) }
                previousSection = row.pointee.section
                appendRow(at: row, index: startIndex + offset, ranges: ranges, to: &out)
            }
        }
    }

    func appendRow(_ row: Row, index: Int?, to out: inout ByteWriter) {
        let ranges = barRanges(CollectionOfOne(row))
        withUnsafePointer(to: row) { appendRow(at: $0, index: index, ranges: ranges, to: &out) }
    }

    /// The row at `row` (read in place, see ``appendRows(_:startIndex:to:)``); `ranges`: ``barRanges(_:)``.
    private func appendRow(at row: UnsafePointer<Row>, index: Int?, ranges: [ClosedRange<Double>?],
                           to out: inout ByteWriter) {
        out.append(isCard ? "<tr class=\"rs-card\" " : "<tr ")
        if let rowIDPrefix {
            out.append("id=\"")
            out.append(rowIDPrefix)
            if let key = row.pointee.key {
                RowElementID.appendEscaped(key, to: &out)
            } else {
                out.appendDecimal(index ?? 0)
            }
            out.append("\" ")
        }
        out.append("data-key=\"")
        if let key = row.pointee.key {
            HTMLEscaping.appendEscaped(key, to: &out)
        } else {
            out.appendDecimal(index ?? 0)
        }
        if let index {
            out.append("\" data-index=\"")
            out.appendDecimal(index)
        }
        if let sections = spec.sections { appendSectionAttributes(sections, row: row.pointee, to: &out) }
        out.append("\">")
        if isCard { appendCardHead(row.pointee, to: &out) }
        cellMarkup.withUnsafeBufferPointer { markup in
            slots.withUnsafeBufferPointer { slots in
                row.pointee.cells.withUnsafeBufferPointer { cells in
                    var markupStart = 0
                    for index in 0..<slots.count {
                        let slot = slots[index]
                        out.append(UnsafeBufferPointer(rebasing: markup[markupStart..<slot.markupEnd]))
                        markupStart = slot.markupEnd
                        if index < cells.count {
                            if slot.isChart {
                                Self.appendChart(cells[index], format: slot.format, decimals: slot.decimals,
                                                 range: index < ranges.count ? ranges[index] : nil, to: &out)
                            } else {
                                Self.appendCell(at: cells.baseAddress! + index, format: slot.format,
                                                decimals: slot.decimals, to: &out)
                            }
                        }
                    }
                }
            }
        }
        guard let detailMarkup else { return out.append(slots.isEmpty ? "</tr>" : "</td></tr>") }
        if !slots.isEmpty { out.append("</td>") }
        row.pointee.detail.withUnsafeBufferPointer { Self.appendDetail($0, markup: detailMarkup, to: &out) }
        out.append("</tr>")
    }

    /// The rows of `appendRows` in a new buffer.
    public func renderRows(_ rows: [Row], startIndex: Int) -> [UInt8] {
        var writer = ByteWriter(capacity: estimatedBytes(rows: rows.count))
        appendRows(rows, startIndex: startIndex, to: &writer)
        return writer.bytes
    }
}
