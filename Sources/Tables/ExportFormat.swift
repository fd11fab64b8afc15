/// The file formats of a table's export, "Download all rows" (`GET /tables/NAME/export.csv` and `.ndjson`,
/// docs/PROTOCOL.md "Export").
///
/// Thread-safe: an immutable value.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// RFC 4180 CSV: a header row of the column titles, then one record per row; formula-like text neutralized
    /// (``CSVField``).
    case csv
    /// Newline-delimited JSON: one object per row, the column titles as its member names, in column order.
    case ndjson

    /// The response's `Content-Type`.
    public var contentType: String {
        switch self {
        case .csv: "text/csv; charset=utf-8"
        case .ndjson: "application/x-ndjson"
        }
    }

    /// The file name's extension, without the dot (also the route's: `export.csv`).
    public var fileExtension: String { rawValue }
}
