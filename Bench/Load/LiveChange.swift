/// One change event of a live table (docs/PROTOCOL.md, "Live updates"), read and checked as a browser's page would
/// apply it: `insert` and `update` are fragments of `<tr data-key="K">` rows without `data-index` (a change has no
/// place in the stream's numbering), `remove` is `{"keys": [...]}`, `fresh` is `{}`. Anything else in those events
/// is malformed, which the soak counts as a violation.
/// Thread rules: a value, made and read on the load client's single thread.
struct LiveChange {
    enum Kind { case insert, update, remove, fresh }

    let kind: Kind
    /// The rows an insert or update carries, or the keys a remove names (0 for fresh).
    let count: Int
    let isWellFormed: Bool

    /// The change `name` names, read from its `data`; nil for an event that is not a live change.
    init?(name: String, data: [UInt8]) {
        switch name {
        case "insert", "update":
            kind = name == "insert" ? .insert : .update
            let rows = Payload.occurrences(of: "<tr", in: data)
            let keys = Payload.occurrences(of: "<tr data-key=\"", in: data)
            count = rows
            isWellFormed = rows > 0 && keys == rows && Payload.rowIndices(data).isEmpty
        case "remove":
            kind = .remove
            let prefix = Array("{\"keys\":[".utf8)
            let closed = data.last == UInt8(ascii: "}")
            count = Payload.occurrences(of: "\"", in: data) / 2 - 1
            isWellFormed = data.starts(with: prefix) && closed && count >= 1
        case "fresh":
            kind = .fresh
            count = 0
            isWellFormed = data == Array("{}".utf8)
        default:
            return nil
        }
    }
}
