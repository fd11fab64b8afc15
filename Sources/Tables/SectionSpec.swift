import JSON

/// How a table groups its rows into sections (the `Section(header:items:footer:)` of the originals): rows whose
/// `field` holds the same value, one after another, form one section, drawn as its own `<tbody>` with a header
/// row (the value and the row count) and an optional footer row (the count, or the sum of a numeric value).
///
/// The server groups only consecutive rows: sort the upstream by the section field so that each value forms one
/// section. Thread-safe: an immutable value, `Sendable`.
public struct SectionSpec: Sendable, Hashable {
    /// What a section's footer row shows.
    public enum Footer: Sendable, Hashable {
        /// No footer row.
        case none
        /// The number of rows in the section.
        case count
        /// The sum of `field` over the section's rows (missing or non-numeric values count as 0); nil: of each
        /// row's `Row.sectionValue` as the row template set it.
        case sum(JSONPath?)

        /// The name used in the protocol (`session.sections.footer`, `data-sections` on the table).
        public var name: String {
            switch self {
            case .none: "none"
            case .count: "count"
            case .sum: "sum"
            }
        }
    }

    /// Where each item's section value lives (its display text is the header and `data-section`); nil: the row
    /// template sets `Row.section`.
    public var field: JSONPath?
    /// The footer of each section.
    public var footer: Footer
    /// The footer's label (default "Total").
    public var footerLabel: String

    /// Creates a section spec.
    public init(field: JSONPath?, footer: Footer = .none, footerLabel: String = "Total") {
        self.field = field
        self.footer = footer
        self.footerLabel = footerLabel
    }
}
