/// The `{name}` values matched by a route, percent-decoded. Thread-safe: a value type.
public struct RouteParameters: Sendable {
    private var values: [String: String]

    public init(_ values: [String: String] = [:]) { self.values = values }

    /// The decoded value of `{name}`, or nil when the route has no such parameter.
    public subscript(name: String) -> String? { values[name] }
}

/// One segment of a route pattern.
package enum RouteSegment: Sendable, Hashable {
    case exact(String)
    case parameter(String)

    /// Splits a pattern like `/tables/{name}/stream` into segments.
    static func parse(_ pattern: String) -> [RouteSegment] {
        pathSegments(pattern).map { segment in
            if segment.hasPrefix("{"), segment.hasSuffix("}"), segment.count > 2 {
                return .parameter(String(segment.dropFirst().dropLast()))
            }
            return .exact(String(segment))
        }
    }

    /// `/a/b` -> ["a", "b"]; `/` -> [""]; empty segments are kept so `/a//b` does not equal `/a/b`.
    package static func pathSegments(_ path: String) -> [Substring] {
        let trimmed = path.hasPrefix("/") ? path.dropFirst() : Substring(path)
        return trimmed.split(separator: "/", omittingEmptySubsequences: false)
    }
}

/// One registered route. Immutable once built.
struct Route: Sendable {
    let method: HTTPMethod
    let segments: [RouteSegment]
    let handler: RouterBuilder.Handler

    /// The raw (still encoded) parameter values if `path` matches, else nil.
    func match(_ path: [Substring]) -> [String: Substring]? {
        guard path.count == segments.count else { return nil }
        var parameters: [String: Substring] = [:]
        for (segment, actual) in zip(segments, path) {
            switch segment {
            case .exact(let text): guard text == actual else { return nil }
            case .parameter(let name): parameters[name] = actual
            }
        }
        return parameters
    }
}
