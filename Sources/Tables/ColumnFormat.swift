/// How a column renders its value; the raw value is also the cell's CSS class suffix (`rs-FORMAT`).
///
/// Thread-safe: an immutable value type.
public enum ColumnFormat: String, Sendable, CaseIterable {
    /// The value's display text, escaped.
    case text
    /// Integers with thousands grouping, doubles grouped with 2 decimals; right-aligned by CSS.
    case number
    /// ISO 8601 dates/date-times or Unix seconds, shown in UTC as `YYYY-MM-DD HH:MM` in a `<time>`.
    case date
    /// An `<a>` for http(s) URLs only; anything else is plain text.
    case link
    /// A `<span class="rs-badge rs-badge-SLUG">` pill.
    case badge
}
