import Tables

/// One column of a code-defined table: its header, its cell format and an optional CSS width. Columns are known
/// before any item is, so the page's header and skeleton rows are drawn from them at once. The same type as a
/// config table's columns (`Tables.Column`), under the library's name.
///
/// ```swift
/// let columns = [TableColumn("Name"), TableColumn("Joined", format: .date, width: "10rem")]
/// ```
///
/// Thread-safe: a value type, `Sendable`.
public typealias TableColumn = Tables.Column
