import JSON

/// A table's item paths compiled two ways: each as a lookup on a built item, and, when every path starts with a
/// key, as the slot of that top-level member (one `JSONMemberNames(paths:)` for all of them) plus the rest of the
/// path, so a row can be read from an item's bytes building only those members (a member all of whose paths go on
/// with a key, such as `owner` for `owner.login`, only as far as they read).
///
/// Thread-safe: an immutable value.
struct ItemPaths: Sendable {
    /// Each path as a lookup on the whole item.
    let lookups: [FieldLookup]
    /// The top-level members the paths start with; nil when some path is the root or starts with an index or `[]`
    /// (then the whole item is needed).
    let memberNames: JSONMemberNames?
    /// Each path as its member's slot in `memberNames` and the rest of the path (evaluated on that member's value).
    let inMember: [(slot: Int, rest: FieldLookup)]

    init(_ paths: [JSONPath]) {
        lookups = paths.map(FieldLookup.init)
        guard paths.allSatisfy({ if case .key? = $0.components.first { true } else { false } }) else {
            memberNames = nil
            inMember = []
            return
        }
        let names = JSONMemberNames(paths: paths)
        memberNames = names
        inMember = paths.map { path in
            guard case .key(let name)? = path.components.first, let slot = names.names.firstIndex(of: name) else {
                preconditionFailure("every path starts with a key named in memberNames")
            }
            return (slot, FieldLookup(JSONPath(components: Array(path.components.dropFirst()))))
        }
    }
}
