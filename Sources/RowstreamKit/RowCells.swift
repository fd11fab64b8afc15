import Foundation
import JSON

/// The cells of one row, filled in column order by a row template (the `cellConfig` of the originals). Each call
/// fills the next cell; cells left unfilled are empty, cells past the last column are ignored. Values are escaped
/// and formatted for you by the column's ``CellFormat``: pass raw text, never HTML.
///
/// ```swift
/// { person, row in
///     row.key = person.id          // the row's stable `data-key` (default: its index)
///     row.text(person.name)
///     row.date(person.joined)
///     row.link(person.homepage, label: "home")
///     row.badge(person.status)
/// }
/// ```
///
/// Not shared: a template gets its own `RowCells` per row, on the thread that loaded the batch.
public struct RowCells {
    /// The cell values so far, one per filled cell, and each link cell's label.
    private(set) var values: [JSONValue] = []
    private(set) var labels: [Int: JSONValue] = [:]
    var keyValue: JSONValue?
    var sectionJSON: JSONValue?
    var sectionValueJSON: JSONValue?
    var cardTitleJSON: JSONValue?
    var cardImageJSON: JSONValue?

    init() {}

    /// The row's stable key, written as its `data-key` (the page keeps rows apart by it). Default: the row's index.
    public var key: String? {
        get { keyValue?.displayText }
        set { keyValue = newValue.map(JSONValue.string) }
    }

    /// The row's section, for a table made with ``TableSections``: consecutive rows with the same section share one
    /// header. Ignored by a table without sections.
    public var section: String? {
        get { sectionJSON?.displayText }
        set { sectionJSON = newValue.map(JSONValue.string) }
    }

    /// What the row adds to its section's `.sum` footer (not finite: nothing).
    public var sectionValue: Double? {
        get { sectionValueJSON?.doubleValue }
        set { sectionValueJSON = newValue.flatMap { $0.isFinite ? JSONValue.double($0) : nil } }
    }

    /// A card's title, for a table with ``TableLayout/grid`` (escaped). Ignored by rows.
    public var cardTitle: String? {
        get { cardTitleJSON?.displayText }
        set { cardTitleJSON = newValue.map(JSONValue.string) }
    }

    /// A card's image URL, for a table with ``TableLayout/grid``: http(s) only; otherwise (or nil) the card shows
    /// a monogram of its title.
    public var cardImage: String? {
        get { cardImageJSON?.stringValue }
        set { cardImageJSON = newValue.map(JSONValue.string) }
    }

    /// The card's title and image as JSON values (a config table's grid fields).
    package mutating func setCard(title: JSONValue?, image: JSONValue?) {
        cardTitleJSON = title
        cardImageJSON = image
    }

    /// The section and summand as JSON values (a config table's section field and sum field).
    package mutating func setSection(_ value: JSONValue?, summand: JSONValue?) {
        sectionJSON = value
        sectionValueJSON = summand
    }

    /// A text cell.
    public mutating func text(_ value: String) { values.append(.string(value)) }

    /// A whole-number cell (grouped by thousands in a `.number` column).
    public mutating func number(_ value: Int) { values.append(.int(Int64(value))) }

    /// A decimal cell (grouped, two decimals in a `.number` column; not finite: empty).
    public mutating func number(_ value: Double) { values.append(value.isFinite ? .double(value) : .null) }

    /// A date cell (UTC `YYYY-MM-DD HH:MM` in a `<time>` in a `.date` column).
    public mutating func date(_ value: Date) {
        values.append(.int(Int64(value.timeIntervalSince1970.rounded(.down))))
    }

    /// A link cell: an `<a>` to `url` in a `.link` column when it is an http(s) URL, else plain text. `label` is
    /// the link's text (default: the URL).
    public mutating func link(_ url: String, label: String? = nil) {
        if let label { labels[values.count] = .string(label) }
        values.append(.string(url))
    }

    /// A badge cell: a pill whose CSS class comes from the text (`rs-badge-active`) in a `.badge` column.
    public mutating func badge(_ value: String) { values.append(.string(value)) }

    /// An empty cell (also what a missing value gives).
    public mutating func empty() { values.append(.null) }

    /// A cell holding a JSON value as is, with a link label: how config-file tables fill their cells.
    package mutating func value(_ value: JSONValue?, label: JSONValue?) {
        if let label { labels[values.count] = label }
        values.append(value ?? .null)
    }

    /// A key given as a JSON value (a config table's key field).
    package mutating func setKey(_ value: JSONValue?) { keyValue = value }

    /// The row as the object the table's renderer reads: `{"k": key, "c0": cell, "c0l": label, ...}`.
    func object(columnCount: Int) -> JSONValue {
        var object: [String: JSONValue] = [:]
        object.reserveCapacity(columnCount + 1)
        if let keyValue { object[RowLayout.key] = keyValue }
        if let sectionJSON { object[RowLayout.section] = sectionJSON }
        if let sectionValueJSON { object[RowLayout.sectionValue] = sectionValueJSON }
        if let cardTitleJSON { object[RowLayout.cardTitle] = cardTitleJSON }
        if let cardImageJSON { object[RowLayout.cardImage] = cardImageJSON }
        for (index, value) in values.prefix(columnCount).enumerated() {
            object[RowLayout.cell(index)] = value
            if let label = labels[index] { object[RowLayout.label(index)] = label }
        }
        return .object(object)
    }
}

/// Where a filled row keeps its key and cells, as the field names of the renderer's column paths.
enum RowLayout {
    static let key = "k"
    static let section = "s"
    static let sectionValue = "v"
    static let cardTitle = "t"
    static let cardImage = "img"
    static func cell(_ index: Int) -> String { "c\(index)" }
    static func label(_ index: Int) -> String { "c\(index)l" }

    /// The path of one field name (plain names always parse; a failure would be a programmer error).
    static func path(_ name: String) -> JSONPath {
        do { return try JSONPath(name) } catch { preconditionFailure("bad row field \(name): \(error)") }
    }
}
