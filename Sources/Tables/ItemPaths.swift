import JSON

/// A table's item paths compiled two ways: each as a lookup on a built item, and, when every path starts with a
/// key, as the slot of that top-level member (one `JSONMemberNames` for all of them) plus the rest of the path, so a
/// row can be read from an item's bytes building only those members.
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
        var names: [String] = []
        var inMember: [(slot: Int, rest: FieldLookup)] = []
        for path in paths {
            guard case .key(let name)? = path.components.first else {
                self.memberNames = nil
                self.inMember = []
                return
            }
            let slot = names.firstIndex(of: name) ?? names.count
            if slot == names.count { names.append(name) }
            inMember.append((slot, FieldLookup(JSONPath(components: Array(path.components.dropFirst())))))
        }
        memberNames = JSONMemberNames(names)
        self.inMember = inMember
    }
}
