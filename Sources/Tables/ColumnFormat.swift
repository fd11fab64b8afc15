/// How a column renders its value; ``className`` (the raw value, but for bar) is its cells' CSS class suffix
/// (`rs-FORMAT`).
///
/// Thread-safe: an immutable value type.
public enum ColumnFormat: String, Sendable, CaseIterable {
    /// The value's display text, escaped.
    case text
    /// Numbers with thousands grouping, as the upstream wrote them (or with the column's fixed `decimals`);
    /// right-aligned by CSS, header included.
    case number
    /// ISO 8601 dates/date-times or Unix seconds, shown in UTC as `YYYY-MM-DD HH:MM` in a `<time>`.
    case date
    /// An `<a>` for http(s) URLs only; anything else is plain text.
    case link
    /// A `<span class="rs-badge rs-badge-SLUG">` pill.
    case badge
    /// A number drawn as a horizontal bar against the column's ``Column/range`` (or the range of the batch it arrives
    /// in), its grouped value beside it as text (ChartFormatting.swift).
    case bar
    /// An array of numbers drawn as a line (inline SVG), the values also as visually hidden text.
    case sparkline
    /// A fraction 0...1 drawn as a progress bar, its percentage beside it as text.
    case progress

    /// The suffix of its cells' and header's CSS class: the raw value, but `barchart` for ``bar`` (`rs-bar` is the
    /// page's header bar).
    public var className: String { self == .bar ? "barchart" : rawValue }

    /// Whether cells of this format are drawn as inline SVG (``TableRenderer``'s chart path).
    public var isChart: Bool { self == .bar || self == .sparkline || self == .progress }
}
