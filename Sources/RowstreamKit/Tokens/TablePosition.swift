/// Where a viewer stands in a table, as the server's machinery sees every table whatever its token type: before
/// the first batch, or at a sealed token (the table's own token, JSON-encoded and sealed with its `SealingKeys`, so a
/// resume token or cursor a client sends back cannot be forged). Thread-safe: an immutable value.
enum TablePosition: Sendable, Equatable {
    case first
    case cursor(String)
}
