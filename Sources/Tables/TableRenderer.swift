import JSON

/// Renders a `TableSpec`'s typed ``Row``s to HTML bytes: data rows, skeleton rows of the same shape, and the table
/// shell.
/// Fixed markup (cell openings, the skeleton row) is built once in `init`; per-row work only formats
/// and escapes values into the caller's buffer.
///
/// Immutable and Sendable: safe from any thread.
public struct TableRenderer: Sendable {
    /// The spec this renderer was built from.
    public let spec: TableSpec
    /// Per column: its opening markup and format, prepared for the render loop.
    private let cells: [CellRenderer.Plan]
    /// One complete skeleton row.
    private let skeleton: [UInt8]
    /// With a value, each data row also gets `id="PREFIX` and its escaped key (``RowElementID``) `"`.
    private var rowIDPrefix: [UInt8]?

    /// Builds a renderer; precomputes the per-column markup.
    public init(spec: TableSpec) {
        self.spec = spec
        let cellOpenings = spec.columns.map { column in
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
        var skeleton: [UInt8] = []
        if spec.grid != nil {
            skeleton.append("<tr class=\"rs-skeleton rs-card\" aria-hidden=\"true\">")
            skeleton.append(contentsOf: Self.cardHeadSkeleton)
        } else {
            skeleton.append("<tr class=\"rs-skeleton\" aria-hidden=\"true\">")
        }
        for opening in cellOpenings {
            skeleton.append(contentsOf: opening)
            skeleton.append("<span class=\"rs-bone\"></span></td>")
        }
        skeleton.append("</tr>")
        self.skeleton = skeleton
        cells = zip(spec.columns, cellOpenings).map { CellRenderer.Plan(opening: $1, format: $0.format, decimals: $0.decimals) }
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
        rows * (128 + cells.count * 96)
    }

    func appendRows(_ rows: [Row], startIndex: Int, to out: inout ByteWriter) {
        guard spec.sections != nil else {
            for (offset, row) in rows.enumerated() { appendRow(row, index: startIndex + offset, to: &out) }
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
        out.append(spec.grid == nil ? "<tr " : "<tr class=\"rs-card\" ")
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
        if spec.grid != nil { appendCardHead(row, to: &out) }
        cells.withUnsafeBufferPointer { plans in
            row.cells.withUnsafeBufferPointer { values in
                for (index, plan) in plans.enumerated() {
                    out.append(plan.opening)
                    if index < values.count { CellRenderer.appendContent(values[index], format: plan.format, decimals: plan.decimals, to: &out) }
                    out.append("</td>")
                }
            }
        }
        out.append("</tr>")
    }

    /// The rows of `appendRows` in a new buffer.
    public func renderRows(_ rows: [Row], startIndex: Int) -> [UInt8] {
        var writer = ByteWriter(capacity: estimatedBytes(rows: rows.count))
        appendRows(rows, startIndex: startIndex, to: &writer)
        return writer.bytes
    }

    /// One skeleton row: `<tr class="rs-skeleton" aria-hidden="true">` with the same cells and classes
    /// as a real row, each holding `<span class="rs-bone"></span>`.
    public func skeletonRow() -> [UInt8] {
        skeleton
    }

    /// `count` skeleton rows back to back (none for count <= 0).
    public func skeletonRows(count: Int) -> [UInt8] {
        var buffer: [UInt8] = []
        appendSkeletonRows(count: count, to: &buffer)
        return buffer
    }

    /// Appends `count` skeleton rows (none for count <= 0).
    public func appendSkeletonRows(count: Int, to buffer: inout [UInt8]) {
        guard count > 0 else { return }
        buffer.reserveCapacity(buffer.count + skeleton.count * count)
        for _ in 0..<count { buffer.append(contentsOf: skeleton) }
    }
}
