/// One row of a table, typed: the only form a row takes between a data source and the renderer. A code table's
/// row template fills one through `RowCells`; a config table's ``RowMaker`` makes one from an upstream item.
///
/// Thread-safe: a value type, `Sendable`.
public struct Row: Sendable, Hashable {
    /// The row's stable key, its `data-key` (nil: the row's index).
    public var key: String?
    /// The cells in column order; cells past the last column are ignored, missing ones are empty.
    public var cells: [Cell]
    /// Its section's display text, for a sectioned table ("" for none).
    public var section: String
    /// What the row adds to its section's sum footer (nil: nothing).
    public var sectionValue: Double?
    /// A card's title (grid tables; "" for none).
    public var cardTitle: String
    /// A card's image URL (grid tables; shown only when it is http(s)).
    public var cardImage: String?
    /// The detail view's own values (``TableSpec/detail``): each field's, in order, then the link's (a `.link` cell)
    /// when the spec has one. Empty for a table without a detail spec.
    public var detail: [Cell] = []

    /// A row of `cells`.
    public init(key: String? = nil, cells: [Cell] = [], section: String = "", sectionValue: Double? = nil,
                cardTitle: String = "", cardImage: String? = nil) {
        self.key = key
        self.cells = cells
        self.section = section
        self.sectionValue = sectionValue
        self.cardTitle = cardTitle
        self.cardImage = cardImage
    }
}
