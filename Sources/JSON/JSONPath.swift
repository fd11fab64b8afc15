/// A path into a JSON value: `a.b`, `a[0].b`, `items`, `edges[].node`, `["@odata.nextLink"]`,
/// `_links.next.href`. The empty path `""` (or `"$"`) is the root; a leading `$.` is allowed.
///
/// - `name` or `.name`: object member (names may hold any character except `.`, `[`, `]`, `"`, `'`
///   and whitespace; quote others).
/// - `[N]`: array element N (`[-1]` is the last element).
/// - `[]`: every element of an array (`evaluateAll` returns every match; `evaluate` the first).
/// - `["key"]` or `['key']`: object member with any name; `\"`, `\'` and `\\` escape inside.
///
/// Thread-safe: an immutable value type.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path.
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
        case each
    }

    /// The steps, root first.
    public let components: [Component]

    /// Parses a path; syntax errors name the character offset.
    public init(_ string: String) throws(JSONError) {
        var parser = JSONPathParser(string)
        components = try parser.parse()
    }

    /// A path from already-split components.
    public init(components: [Component]) {
        self.components = components
    }

    /// The root path.
    public static let root = JSONPath(components: [])

    /// The first (or only) match; nil if absent.
    public func evaluate(_ value: JSONValue) -> JSONValue? {
        Self.first(components[...], in: value)
    }

    /// Every match, in document order (more than one only through `[]`).
    public func evaluateAll(_ value: JSONValue) -> [JSONValue] {
        var matches: [JSONValue] = []
        Self.collect(components[...], in: value, into: &matches)
        return matches
    }

    /// The canonical spelling, which parses back to an equal path.
    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key) where JSONPathParser.isPlainName(key):
                if !text.isEmpty { text += "." }
                text += key
            case .key(let key):
                text += "[\"" + key.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\"]"
            case .index(let i):
                text += "[\(i)]"
            case .each:
                text += "[]"
            }
        }
        return text
    }

    // MARK: Evaluation

    private static func step(_ component: Component, _ value: JSONValue) -> JSONValue? {
        switch component {
        case .key(let key):
            return value[key]
        case .index(let i):
            guard case .array(let elements) = value else { return nil }
            let index = i < 0 ? elements.count + i : i
            // Not a ternary: `nil` there would become `JSONValue.null` through the nil literal.
            guard elements.indices.contains(index) else { return nil }
            return elements[index]
        case .each:
            return nil
        }
    }

    private static func first(_ rest: ArraySlice<Component>, in value: JSONValue) -> JSONValue? {
        var current = value
        var rest = rest
        while let component = rest.first {
            rest = rest.dropFirst()
            if component == .each {
                guard case .array(let elements) = current else { return nil }
                for element in elements {
                    if let match = first(rest, in: element) { return match }
                }
                return nil
            }
            guard let next = step(component, current) else { return nil }
            current = next
        }
        return current
    }

    private static func collect(_ rest: ArraySlice<Component>, in value: JSONValue, into matches: inout [JSONValue]) {
        var current = value
        var rest = rest
        while let component = rest.first {
            rest = rest.dropFirst()
            if component == .each {
                guard case .array(let elements) = current else { return }
                for element in elements { collect(rest, in: element, into: &matches) }
                return
            }
            guard let next = step(component, current) else { return }
            current = next
        }
        matches.append(current)
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
