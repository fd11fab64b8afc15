import JSON

/// A config table's rows: its JSON paths (key, columns and link labels, section and sum, card title and image),
/// compiled once into lookups, then one ``Row`` per upstream item. Paths a spec leaves nil give nothing.
///
/// Thread-safe: an immutable value, `Sendable`.
public struct RowMaker: Sendable {
    private struct CellPaths: Sendable {
        let field: FieldLookup?
        /// Link columns: where the label is (nil: not a link column, or no label).
        let label: FieldLookup?
        let isLink: Bool
    }

    private let key: FieldLookup?
    private let cells: [CellPaths]
    private let section: FieldLookup?
    private let sum: FieldLookup?
    private let cardTitle: FieldLookup?
    private let cardImage: FieldLookup?

    /// Compiles the paths of `spec`.
    public init(spec: TableSpec) {
        key = spec.keyField.map(FieldLookup.init)
        cells = spec.columns.map { column in
            CellPaths(field: column.field.map(FieldLookup.init),
                      label: column.format == .link ? column.labelField.map(FieldLookup.init) : nil,
                      isLink: column.format == .link)
        }
        section = spec.sections?.field.map(FieldLookup.init)
        if case .sum(let path)? = spec.sections?.footer { sum = path.map(FieldLookup.init) } else { sum = nil }
        cardTitle = spec.grid?.titleField.map(FieldLookup.init)
        cardImage = spec.grid?.imageField.map(FieldLookup.init)
    }

    /// The row of `item`.
    public func row(_ item: JSONValue) -> Row {
        var row = Row()
        if let value = key?.evaluate(item), !value.isNull { row.key = value.displayText }
        row.cells.reserveCapacity(cells.count)
        for paths in cells {
            let value = paths.field?.evaluate(item)
            row.cells.append(paths.isLink ? Cell(link: value, label: paths.label?.evaluate(item)) : Cell(value))
        }
        if let section, let value = section.evaluate(item), !value.isNull { row.section = value.displayText ?? "" }
        if let sum { row.sectionValue = Self.summand(sum.evaluate(item)) }
        if let cardTitle, let value = cardTitle.evaluate(item), !value.isNull { row.cardTitle = value.displayText ?? "" }
        row.cardImage = cardImage?.evaluate(item)?.stringValue
        return row
    }

    /// The rows of `items`.
    public func rows(_ items: [JSONValue]) -> [Row] { items.map(row) }

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
