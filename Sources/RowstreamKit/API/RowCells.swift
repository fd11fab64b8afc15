import Foundation
import Tables

/// The cells of one row, filled in column order by a row template (the `cellConfig` of the originals). Each call
/// fills the next cell; cells left unfilled are empty, cells past the last column are ignored. Values are escaped
/// and formatted for you by the column's ``CellFormat``: pass raw text, never HTML. What it fills is a typed
/// ``Row``, the form the renderer reads.
///
/// ```swift
/// { person, row in
///     row.key = person.id          // the row's stable `data-key` (default: its index)
///     row.text(person.name)
///     row.date(person.joined)
///     row.link(person.homepage, label: "home")
///     row.badge(person.status)
///     row.bar(person.revenue)      // .bar, .sparkline and .progress columns: inline SVG and the value as text
///     row.sparkline(person.weeklyVisits)
///     row.progress(person.onboarded)   // 0...1
/// }
/// ```
///
/// Not shared: a template gets its own `RowCells` per row, on the thread that loaded the batch.
public struct RowCells {
    /// The row filled so far.
    private(set) var row = Row()

    init() {}

    /// The row's stable key, written as its `data-key` (the page keeps rows apart by it). Default: the row's index.
    public var key: String? {
        get { row.key }
        set { row.key = newValue }
    }

    /// The row's section, for a table made with ``TableSections``: consecutive rows with the same section share one
    /// header. Ignored by a table without sections.
    public var section: String? {
        get { row.section.isEmpty ? nil : row.section }
        set { row.section = newValue ?? "" }
    }

    /// What the row adds to its section's `.sum` footer (not finite: nothing).
    public var sectionValue: Double? {
        get { row.sectionValue }
        set { row.sectionValue = newValue.flatMap { $0.isFinite ? $0 : nil } }
    }

    /// A card's title, for a table with ``TableLayout/grid`` (escaped). Ignored by rows.
    public var cardTitle: String? {
        get { row.cardTitle.isEmpty ? nil : row.cardTitle }
        set { row.cardTitle = newValue ?? "" }
    }

    /// A card's image URL, for a table with ``TableLayout/grid``: http(s) only; otherwise (or nil) the card shows
    /// a monogram of its title.
    public var cardImage: String? {
        get { row.cardImage }
        set { row.cardImage = newValue }
    }

    /// A text cell.
    public mutating func text(_ value: String) { row.cells.append(.text(value)) }

    /// A whole-number cell (grouped by thousands in a `.number` column).
    public mutating func number(_ value: Int) { row.cells.append(.integer(Int64(value))) }

    /// A decimal cell (grouped, two decimals in a `.number` column; not finite: empty).
    public mutating func number(_ value: Double) { row.cells.append(value.isFinite ? .decimal(value) : .empty) }

    /// A date cell (UTC `YYYY-MM-DD HH:MM` in a `<time>` in a `.date` column).
    public mutating func date(_ value: Date) {
        row.cells.append(.integer(Int64(value.timeIntervalSince1970.rounded(.down))))
    }

    /// A link cell: an `<a>` to `url` in a `.link` column when it is an http(s) URL, else plain text. `label` is
    /// the link's text (default: the URL).
    public mutating func link(_ url: String, label: String? = nil) { row.cells.append(.link(url, label: label)) }

    /// A badge cell: a pill whose CSS class comes from the text (`rs-badge-active`) in a `.badge` column.
    public mutating func badge(_ value: String) { row.cells.append(.text(value)) }

    /// A bar cell: `value` as a bar against the column's `range` (``Column/range``; none: the batch's own range and
    /// zero) with its grouped number beside it, in a `.bar` column. Not finite: a bad value (an empty cell).
    public mutating func bar(_ value: Double) { row.cells.append(.decimal(value)) }

    /// A sparkline cell: `values` as a line (their own smallest to largest), the numbers also as hidden text, in a
    /// `.sparkline` column. Empty: an empty cell; any value not finite: a bad value (an empty cell).
    public mutating func sparkline(_ values: [Double]) {
        guard !values.isEmpty else { return row.cells.append(.empty) }
        guard values.allSatisfy(\.isFinite) else {
            return row.cells.append(.text(values.map { String($0) }.joined(separator: ",")))
        }
        row.cells.append(.series(values))
    }

    /// A progress cell: `fraction` (0...1) as a progress bar with its percentage beside it, in a `.progress` column.
    public mutating func progress(_ fraction: Double) { row.cells.append(.decimal(fraction)) }

    /// An empty cell (also what a missing value gives).
    public mutating func empty() { row.cells.append(.empty) }

    /// The row a template fills for `item`.
    static func fill<Item>(_ item: Item, with template: (Item, inout RowCells) -> Void) -> Row {
        var cells = RowCells()
        template(item, &cells)
        return cells.row
    }
}
