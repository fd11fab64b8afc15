/// What a config table's JSON proxy (`/api/tables/NAME/pages`) shows of each upstream item: config key
/// `"proxy": {"items": "columns" | "raw"}` (docs/CONFIG.md).
public enum ProxyItems: String, Sendable, CaseIterable {
    /// The default: only what the table shows (columns, labels, key, section and sum fields, card title and
    /// image); every other field the upstream returns (an e-mail address no column shows) stays on the server.
    case columns
    /// The whole upstream item, every field: opt-in, for tables whose upstream returns nothing private.
    case raw
}
