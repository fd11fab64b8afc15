import JSON

/// A column's path, prepared for the render loop: a path of one object key (the common case) is looked up
/// directly in the item's members, with no walk over path components; any other path is evaluated as a `JSONPath`.
///
/// Thread-safe: an immutable value.
enum FieldLookup: Sendable {
    case key(String)
    case path(JSONPath)

    init(_ path: JSONPath) {
        if path.components.count == 1, case .key(let key) = path.components[0] {
            self = .key(key)
        } else {
            self = .path(path)
        }
    }

    /// The value at this path in `item` (as `JSONPath.evaluate`).
    @inline(__always)
    func evaluate(_ item: JSONValue) -> JSONValue? {
        switch self {
        case .key(let key):
            guard case .object(let members) = item else { return nil }
            return members[key]
        case .path(let path):
            return path.evaluate(item)
        }
    }
}
