import JSON

/// One column of a table: a header title, how its cells render, an optional width and, for a config table, where
/// its value lives in an item. The one column type of the library (code tables) and the config files.
///
/// ```swift
/// let columns = [Column("Name"), Column("Joined", format: .date, width: "10rem")]
/// ```
///
/// Thread-safe: an immutable-by-value type, `Sendable`.
public struct Column: Sendable, Hashable {
    /// Header text (escaped when rendered).
    public var title: String
    /// Where the cell's value lives in each upstream item (config tables; nil: the row template fills the cell).
    public var field: JSONPath?
    /// How the value renders.
    public var format: ColumnFormat
    /// A CSS length like "8rem", "120px", "20%". Only values matching
    /// `^\d+(\.\d+)?(rem|em|px|%|ch)$` are ever written out; see `validatedWidth`.
    public var width: String?
    /// Link columns of a config table: where the link's text lives (default: the URL itself).
    public var labelField: JSONPath?
    /// The narrowest the column may get, a CSS length of `width`'s shape (nil: ``defaultMinimumWidth`` for a
    /// column without a width). A column is also never narrower than its header's text (``TableStyleSheet``).
    public var minWidth: String?
    /// Number columns: show every number with exactly this many decimals (0...6). Nil: as the upstream wrote it
    /// (`3.1` stays `3.1`), with thousands grouping.
    public var decimals: Int?
    /// Bar columns: the values at an empty and at a full bar (nil: each batch's own smallest and largest value, and
    /// zero; see ChartFormatting.swift). Its bounds are finite and `lowerBound < upperBound` (else ignored).
    public var range: ClosedRange<Double>?

    /// The minimum width of a column that has no `width` and no `minWidth`: it takes the table's free space, and
    /// would otherwise shrink to nothing on a narrow screen.
    public static let defaultMinimumWidth = "8rem"
    /// The largest `decimals`.
    public static let maximumDecimals = 6

    /// A column titled `title` whose cells a row template fills (``Row``, `RowCells`).
    public init(_ title: String, format: ColumnFormat = .text, width: String? = nil) {
        self.init(title: title, field: nil, format: format, width: width)
    }

    /// A column reading its value from `field` of each item.
    public init(title: String, field: JSONPath?, format: ColumnFormat = .text, width: String? = nil,
                labelField: JSONPath? = nil, minWidth: String? = nil, decimals: Int? = nil,
                range: ClosedRange<Double>? = nil) {
        self.title = title
        self.field = field
        self.format = format
        self.width = width
        self.labelField = labelField
        self.minWidth = minWidth
        self.decimals = decimals.map { min(max($0, 0), Self.maximumDecimals) }
        self.range = range.flatMap(Self.validRange)
    }

    /// `range` if its bounds are finite and apart, else nil.
    public static func validRange(_ range: ClosedRange<Double>) -> ClosedRange<Double>? {
        range.lowerBound.isFinite && range.upperBound.isFinite && range.lowerBound < range.upperBound ? range : nil
    }

    /// `width` if it is a valid CSS length of the accepted shape, else nil.
    public var validatedWidth: String? {
        guard let width, Self.isValidWidth(width) else { return nil }
        return width
    }

    /// True if `width` matches `^\d+(\.\d+)?(rem|em|px|%|ch)$` (ASCII digits only).
    public static func isValidWidth(_ width: String) -> Bool {
        let bytes = Array(width.utf8)
        var i = 0
        func digits() -> Bool {
            let start = i
            while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") { i += 1 }
            return i > start
        }
        guard digits() else { return false }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() else { return false }
        }
        let unit = String(decoding: bytes[i...], as: UTF8.self)
        return ["rem", "em", "px", "%", "ch"].contains(unit)
    }
}
