/// Reads RFC 8288 `Link` headers: `<https://api.example/items?page=2>; rel="next", <...>; rel="last"`.
///
/// Pure functions: thread-safe.
enum LinkHeader {
    /// The target of the first link whose `rel` includes `relation` (case-insensitive); nil if none.
    static func target(_ header: String, relation: String) -> String? {
        var rest = Substring(header)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { return nil }
            let target = rest[rest.index(after: open)..<close]
            let paramsEnd = rest[close...].firstIndex(of: "<") ?? rest.endIndex
            let parameters = rest[rest.index(after: close)..<paramsEnd]
            if relations(in: parameters).contains(relation.lowercased()) { return String(target) }
            rest = rest[paramsEnd...]
        }
        return nil
    }

    /// The space-separated values of the `rel` parameter in `; a=b; rel="next last"`.
    private static func relations(in parameters: Substring) -> [String] {
        for parameter in parameters.split(separator: ";") {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingHTTPWhitespace().lowercased() == "rel" else { continue }
            var value = parts[1].trimmingHTTPWhitespace()
            while let last = value.last, last == "," || last == " " { value.removeLast() }
            if value.hasPrefix("\"") { value.removeFirst() }
            if value.hasSuffix("\"") { value.removeLast() }
            return value.lowercased().split(separator: " ").map(String.init)
        }
        return []
    }
}
