import JSON

/// A config table's rows: its JSON paths (key, columns and link labels, section and sum, card title and image),
/// compiled once into lookups, then one ``Row`` per upstream item, from its `JSONValue` or straight from its bytes.
/// Paths a spec leaves nil give nothing.
///
/// Thread-safe: an immutable value, `Sendable`.
public struct RowMaker: Sendable {
    /// Every path of the spec, compiled; the fields below index into it.
    let paths: ItemPaths

    private struct CellPaths: Sendable {
        let field: Int?
        /// Link columns: where the label is (nil: not a link column, or no label).
        let label: Int?
        let isLink: Bool
        /// Sparkline columns: the value is a series (``Cell/init(series:)``).
        let isSeries: Bool
    }

    private let key: Int?
    private let cells: [CellPaths]
    private let section: Int?
    private let sum: Int?
    private let cardTitle: Int?
    private let cardImage: Int?
    /// The detail view's fields, then its link (``DetailSpec``); empty without one.
    private let detail: [Int]
    private let detailLink: Int?

    /// Compiles the paths of `spec`.
    public init(spec: TableSpec) {
        var all: [JSONPath] = []
        func add(_ path: JSONPath?) -> Int? {
            guard let path else { return nil }
            all.append(path)
            return all.count - 1
        }
        key = add(spec.keyField)
        cells = spec.columns.map { column in
            CellPaths(field: add(column.field), label: column.format == .link ? add(column.labelField) : nil,
                      isLink: column.format == .link, isSeries: column.format == .sparkline)
        }
        section = add(spec.sections?.field)
        if case .sum(let path)? = spec.sections?.footer { sum = add(path) } else { sum = nil }
        cardTitle = add(spec.grid?.titleField)
        cardImage = add(spec.grid?.imageField)
        detail = spec.detail?.fields.compactMap { add($0.path) } ?? []
        detailLink = add(spec.detail?.link)
        paths = ItemPaths(all)
    }

    /// The row of `item`.
    public func row(_ item: JSONValue) -> Row {
        row { paths.lookups[$0].evaluate(item) }
    }

    /// The row of the item whose JSON text is `bytes` (one value), nested at most 64 deep: a config table's reader
    /// (`ItemReader.rows`, called by the page's read for each item).
    public func row(json bytes: UnsafeBufferPointer<UInt8>) throws(JSONError) -> Row {
        try row(json: bytes, maxDepth: 64)
    }

    /// The row of the item whose JSON text is `bytes` (one value): equal to `row(try JSONValue.parse(bytes))`, made
    /// without building the item: only the members its paths start with are read (the whole item when a path is the
    /// root or starts with an index or `[]`). `maxDepth` counts from the item.
    public func row(json bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) throws(JSONError) -> Row {
        guard let names = paths.memberNames else {
            return row(try JSONValue.parse(buffer: bytes, maxDepth: maxDepth).get())
        }
        let members = try JSONValue.members(named: names, in: bytes, maxDepth: maxDepth)
        return row { index in
            let (slot, rest) = paths.inMember[index]
            return members[slot].flatMap(rest.evaluate)
        }
    }

    /// The rows of `items`.
    public func rows(_ items: [JSONValue]) -> [Row] { items.map(row) }

    /// The row whose path number `i` (an index into `paths`) has the value `value(i)`: the cell logic both entries share.
    @inline(__always)
    private func row(_ value: (Int) -> JSONValue?) -> Row {
        var row = Row()
        if let key, let value = value(key), !value.isNull { row.key = value.displayText }
        row.cells.reserveCapacity(cells.count)
        for paths in cells {
            let field = paths.field.flatMap(value)
            if paths.isLink {
                row.cells.append(Cell(link: field, label: paths.label.flatMap(value)))
            } else {
                row.cells.append(paths.isSeries ? Cell(series: field) : Cell(field))
            }
        }
        if let section, let value = value(section), !value.isNull { row.section = value.displayText ?? "" }
        if let sum { row.sectionValue = Self.summand(value(sum)) }
        if let cardTitle, let value = value(cardTitle), !value.isNull { row.cardTitle = value.displayText ?? "" }
        row.cardImage = cardImage.flatMap(value)?.stringValue
        if !detail.isEmpty || detailLink != nil { appendDetail(to: &row, value) }
        return row
    }

    /// The detail view's cells of the row (fields, then the link): only for a table with a ``DetailSpec``.
    private func appendDetail(to row: inout Row, _ value: (Int) -> JSONValue?) {
        row.detail.reserveCapacity(detail.count + 1)
        for path in detail { row.detail.append(Cell(value(path))) }
        if let detailLink { row.detail.append(Cell(link: value(detailLink), label: nil)) }
    }

    /// The number a value adds to a sum footer: a number, or a string that reads as one; finite only.
    static func summand(_ value: JSONValue?) -> Double? {
        guard let value else { return nil }
        let number: Double?
        switch value {
        case .string(let text): number = Double(text)
        case .bool: number = nil
        default: number = value.doubleValue
        }
        return number.flatMap { $0.isFinite ? $0 : nil }
    }
}
