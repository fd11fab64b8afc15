import Tables

/// One column of a code-defined table: its header, its cell format and an optional CSS width. Columns are known
/// before any item is, so the page's header and skeleton rows are drawn from them at once.
///
/// ```swift
/// let columns = [TableColumn("Name"), TableColumn("Joined", format: .date, width: "10rem")]
/// ```
///
/// Thread-safe: a value type, `Sendable`.
public struct TableColumn: Sendable, Hashable {
    /// Header text (escaped when rendered).
    public var title: String
    /// How the column's cells render; also the CSS class of the column's cells and skeleton bones.
    public var format: CellFormat
    /// A CSS length like `"8rem"`, `"120px"`, `"20%"`; anything else is ignored (never written out).
    public var width: String?
    /// The `field` the protocol lists for the column (`session` event, `/api/tables`): a config table's JSON path;
    /// nil lists the cell's place in the row object, `c0`, `c1`, ...
    package var field: String?

    /// A column titled `title`.
    public init(_ title: String, format: CellFormat = .text, width: String? = nil) {
        self.title = title
        self.format = format
        self.width = width
    }
}
