extension JSONValue {
    /// `self` with only what `paths` read: object members no path names are dropped; an array a path indexes or
    /// iterates (`[2]`, `[-1]`, `[]`) keeps its length, with `null` for elements no path reads; a path that ends
    /// at a value keeps that value whole. Nothing read at all: `{}`. Used to show a client an upstream item's
    /// configured columns and nothing else (the JSON proxy).
    public func projected(onto paths: [JSONPath]) -> JSONValue {
        Self.project(self, paths.map { $0.components[...] }) ?? .object([:])
    }

    private static func project(_ value: JSONValue, _ tails: [ArraySlice<JSONPath.Component>]) -> JSONValue? {
        if tails.contains(where: \.isEmpty) { return value }
        switch value {
        case .object(let members):
            var byKey: [String: [ArraySlice<JSONPath.Component>]] = [:]
            for tail in tails {
                if case .key(let key)? = tail.first { byKey[key, default: []].append(tail.dropFirst()) }
            }
            var out: [String: JSONValue] = [:]
            for (key, rest) in byKey {
                if let member = members[key], let kept = project(member, rest) { out[key] = kept }
            }
            return out.isEmpty ? nil : .object(out)
        case .array(let elements):
            var out: [JSONValue] = []
            var kept = false
            for (position, element) in elements.enumerated() {
                let rest = tails.compactMap { tail -> ArraySlice<JSONPath.Component>? in
                    switch tail.first {
                    case .each?: return tail.dropFirst()
                    case .index(let i)?: return (i < 0 ? elements.count + i : i) == position ? tail.dropFirst() : nil
                    default: return nil
                    }
                }
                let projected = rest.isEmpty ? nil : project(element, rest)
                kept = kept || projected != nil
                out.append(projected ?? .null)
            }
            return kept ? .array(out) : nil
        default:
            return nil
        }
    }
}
