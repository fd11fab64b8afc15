import Tables

/// Groups a table's rows into sections (the `Section(header:items:footer:)` of the originals): the row template
/// sets `row.section`, and consecutive rows with the same section form one `<tbody>` with a header row (the
/// section and its row count) and, optionally, a footer row.
///
/// ```swift
/// TableBinding(name: "orders", title: "Orders", columns: columns, sections: TableSections(footer: .sum),
///              source: source) { order, row in
///     row.section = order.city         // sort the source by it: only consecutive rows are grouped
///     row.sectionValue = order.total   // what a .sum footer adds up
///     row.text(order.customer)
/// }
/// ```
///
/// Thread-safe: an immutable value, `Sendable`.
public struct TableSections: Sendable, Hashable {
    /// What each section's footer row shows.
    public enum Footer: Sendable, Hashable {
        /// No footer row.
        case none
        /// The section's row count.
        case count
        /// The sum of the rows' `RowCells.sectionValue`.
        case sum
    }

    /// The footer of every section.
    public var footer: Footer
    /// The footer's label, such as "Total" (escaped).
    public var footerLabel: String

    /// Sections with `footer` (default: none) labelled `footerLabel`.
    public init(footer: Footer = .none, footerLabel: String = "Total") {
        self.footer = footer
        self.footerLabel = footerLabel
    }

    /// The renderer's spec: the rows come with their sections (`Row.section`, `Row.sectionValue`).
    var spec: SectionSpec {
        let footer: SectionSpec.Footer
        switch self.footer {
        case .none: footer = .none
        case .count: footer = .count
        case .sum: footer = .sum(nil)
        }
        return SectionSpec(field: nil, footer: footer, footerLabel: footerLabel)
    }
}
