/// How a column renders its value; the raw value is also the cell's CSS class suffix (`rs-FORMAT`).
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
}
