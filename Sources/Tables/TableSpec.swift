import JSON

/// A table: its name (used in URLs and `data-table`), its title, its columns and where each item's
/// stable key lives.
///
/// Thread-safe: a value type, `Sendable`.
public struct TableSpec: Sendable, Hashable {
    /// Short identifier, e.g. "repos".
    public var name: String
    /// Human title, e.g. "Repositories".
    public var title: String
    /// The columns, left to right.
    public var columns: [Column]
    /// Where each item's key lives; the row's `data-key` is its display text (the row index if absent).
    /// Nil: the rows come keyed (a row template sets `Row.key`).
    public var keyField: JSONPath?
    /// How rows group into sections (nil: plain rows). See ``SectionSpec``.
    public var sections: SectionSpec? = nil
    /// Cards in a grid instead of rows (nil: rows). See ``GridSpec``.
    public var grid: GridSpec? = nil
    /// Fields of a row's detail view that are not columns, and the item's own URL (nil: the columns only). See
    /// ``DetailSpec``.
    public var detail: DetailSpec? = nil
    /// How its skeleton bones move (nil: the page's default). See ``SkeletonStyle``.
    public var skeleton: SkeletonStyle? = nil
    /// The time zone and locale the page shows dates and numbers in (``ViewerFormats``).
    public var viewerFormats = ViewerFormats()

    /// Creates a table spec.
    public init(name: String, title: String, columns: [Column], keyField: JSONPath?) {
        self.name = name
        self.title = title
        self.columns = columns
        self.keyField = keyField
    }
}
