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
    private let cellMarkup: [UInt8]
    /// Per column: what a row needs of it, in one flat array of plain values.
    private let slots: [CellSlot]

    /// A column as a row writes it: where its markup ends in ``cellMarkup`` (it starts where the column before
    /// ends), its format, and a number column's fixed decimals (``Column/decimals``; nil: as the upstream wrote it).
    private struct CellSlot: Sendable {
        var markupEnd: Int
        var format: ColumnFormat
        var decimals: Int?
    }
    /// One complete skeleton row.
    let skeleton: [UInt8]
    /// Whether rows are cards (``TableSpec/grid``), kept as a flag: testing the optional spec per row copied it.
    private let isCard: Bool
    /// With a value, each data row also gets `id="PREFIX` and its escaped key (``RowElementID``) `"`.
    private var rowIDPrefix: [UInt8]?

    /// Builds a renderer; precomputes the per-column markup.
    public init(spec: TableSpec) {
        self.spec = spec
        let openings = spec.columns.map { column in
            var bytes: [UInt8] = []
            bytes.append("<td class=\"rs-c rs-")
            bytes.append(contentsOf: column.format.rawValue.utf8)
            if spec.grid != nil {   // cards label their fields
                bytes.append("\" data-label=\"")
                HTMLEscaping.appendEscaped(column.title, to: &bytes)
            }
            bytes.append("\">")
            return bytes
        }
        var markup: [UInt8] = []
        slots = zip(spec.columns, openings).map { column, opening in
            if !markup.isEmpty { markup.append("</td>") }
            markup.append(contentsOf: opening)
            return CellSlot(markupEnd: markup.count, format: column.format, decimals: column.decimals)
        }
        cellMarkup = markup
        isCard = spec.grid != nil
        skeleton = Self.skeletonRow(cellOpenings: openings, isCard: isCard)
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
        guard spec.sections != nil else {
            // By index, not `for row in rows`: each row is read in place, never copied (no reference counting).
            for offset in rows.indices { appendRow(rows[offset], index: startIndex + offset, to: &out) }
            return
        }
        var previousSection: String? = nil
        for (offset, row) in rows.enumerated() {
            if row.section != previousSection { appendSectionHeader(row.section, to: &out) }
            previousSection = row.section
            appendRow(row, index: startIndex + offset, to: &out)
        }
    }

    func appendRow(_ row: Row, index: Int?, to out: inout ByteWriter) {
        out.append(isCard ? "<tr class=\"rs-card\" " : "<tr ")
        if let rowIDPrefix {
            out.append("id=\"")
            out.append(rowIDPrefix)
            if let key = row.key { RowElementID.appendEscaped(key, to: &out) } else { out.appendDecimal(index ?? 0) }
            out.append("\" ")
        }
        out.append("data-key=\"")
        if let key = row.key {
            HTMLEscaping.appendEscaped(key, to: &out)
        } else {
            out.appendDecimal(index ?? 0)
        }
        if let index {
            out.append("\" data-index=\"")
            out.appendDecimal(index)
        }
        if let sections = spec.sections { appendSectionAttributes(sections, row: row, to: &out) }
        out.append("\">")
        if isCard { appendCardHead(row, to: &out) }
        cellMarkup.withUnsafeBufferPointer { markup in
            slots.withUnsafeBufferPointer { slots in
                var markupStart = 0
                for index in 0..<slots.count {
                    let slot = slots[index]
                    out.append(UnsafeBufferPointer(rebasing: markup[markupStart..<slot.markupEnd]))
                    markupStart = slot.markupEnd
                    // Read from the row's array in place: a cell from an unsafe buffer would be copied (retained).
                    if index < row.cells.count {
                        Self.appendCell(row.cells[index], format: slot.format, decimals: slot.decimals, to: &out)
                    }
                }
            }
        }
        out.append(slots.isEmpty ? "</tr>" : "</td></tr>")
    }

    /// The rows of `appendRows` in a new buffer.
    public func renderRows(_ rows: [Row], startIndex: Int) -> [UInt8] {
        var writer = ByteWriter(capacity: estimatedBytes(rows: rows.count))
        appendRows(rows, startIndex: startIndex, to: &writer)
        return writer.bytes
    }

    // MARK: Cells

    /// Appends the content of `cell` in a column of `format` (a number column: with `decimals` fixed decimals, or
    /// as the upstream wrote it); nothing for an empty cell.
    @inline(__always)
    private static func appendCell(_ cell: Cell, format: ColumnFormat, decimals: Int?, to out: inout ByteWriter) {
        if case .empty = cell { return }
        switch format {
        case .text:
            appendText(cell, to: &out)
        case .number:
            appendNumber(cell, decimals: decimals, to: &out)
        case .date:
            if !DateFormatting.appendTime(cell, to: &out) { appendText(cell, to: &out) }
        case .link:
            appendLink(cell, to: &out)
        case .badge:
            appendBadge(cell, to: &out)
        }
    }

    /// The cell's display text, escaped. Text is escaped without copying.
    private static func appendText(_ cell: Cell, to out: inout ByteWriter) {
        switch cell {
        case .text(let text), .link(let text, _): HTMLEscaping.appendEscaped(text, to: &out)
        case .integer(let number): out.appendDecimal(Int(number))
        default: if let text = cell.displayText { HTMLEscaping.appendEscaped(text, to: &out) }
        }
    }

    private static func appendNumber(_ cell: Cell, decimals: Int?, to out: inout ByteWriter) {
        switch cell {
        case .integer(let number):
            NumberFormatting.appendGrouped(number, decimals: decimals ?? 0, to: &out)
        case .decimal(let number):
            if let decimals, NumberFormatting.appendGrouped(number, decimals: decimals, to: &out) { return }
            // A whole number below 2^53 is its integer's digits (as `displayText` spells it), grouped without text.
            if number.magnitude < 9_007_199_254_740_992, Double(Int64(number)) == number {
                NumberFormatting.appendGrouped(Int64(number), to: &out)
                return
            }
            // The shortest spelling that reads back as the same number: what the upstream wrote, less any
            // trailing zeros (3.1, 1234.5 -> 1,234.5; 1e+21 as it is).
            if let text = cell.displayText { NumberFormatting.appendGrouped(literal: text, to: &out) }
        case .bigInteger(let digits):
            NumberFormatting.appendGrouped(literal: digits, to: &out)
        default:
            appendText(cell, to: &out)
        }
    }

    /// `<a href="URL" rel="noopener noreferrer nofollow">LABEL</a>` for http(s) URLs; otherwise the
    /// label (or the value) as plain escaped text. The URL is escaped once, from the value's bytes.
    private static func appendLink(_ cell: Cell, to out: inout ByteWriter) {
        switch cell {
        case .link(let url, let label):
            let label = label?.isEmpty == false ? label : nil
            if appendAnchor(url, label: label, to: &out) { return }
            if let label { HTMLEscaping.appendEscaped(label, to: &out) } else { appendText(cell, to: &out) }
        case .text(let url):
            if !appendAnchor(url, label: nil, to: &out) { appendText(cell, to: &out) }
        default:
            if let text = cell.displayText, appendAnchor(text, label: nil, to: &out) { return }
            appendText(cell, to: &out)
        }
    }

    /// The `<a>` of a link cell if `url` is http(s) (``LinkFormatting/safeRange(_:)``); false (nothing written)
    /// otherwise. No `label`: the URL is its text, copied from the bytes just escaped.
    private static func appendAnchor(_ url: String, label: String?, to out: inout ByteWriter) -> Bool {
        url.withUTF8Bytes { bytes -> Bool in
            guard let range = LinkFormatting.safeRange(bytes) else { return false }
            out.append("<a href=\"")
            let escapedURL = out.count
            HTMLEscaping.appendEscaped(bytes: UnsafeBufferPointer(rebasing: bytes[range]), to: &out)
            let escapedURLEnd = out.count
            out.append("\" rel=\"noopener noreferrer nofollow\">")
            if let label {
                HTMLEscaping.appendEscaped(label, to: &out)
            } else {
                out.appendWritten(escapedURL..<escapedURLEnd)
            }
            out.append("</a>")
            return true
        }
    }

    /// `<span class="rs-badge rs-badge-SLUG">TEXT</span>`.
    private static func appendBadge(_ cell: Cell, to out: inout ByteWriter) {
        switch cell {
        case .text(let text), .link(let text, _): appendBadge(text: text, to: &out)
        default: if let text = cell.displayText { appendBadge(text: text, to: &out) }
        }
    }

    private static func appendBadge(text: String, to out: inout ByteWriter) {
        out.append("<span class=\"rs-badge rs-badge-")
        BadgeFormatting.appendSlug(text, to: &out)
        out.append("\">")
        HTMLEscaping.appendEscaped(text, to: &out)
        out.append("</span>")
    }
}
