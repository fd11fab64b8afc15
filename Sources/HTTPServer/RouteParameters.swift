/// The `{name}` values matched by a route, percent-decoded. Thread-safe: a value type.
public struct RouteParameters: Sendable {
    /// A route has one or two parameters: found by comparing names, with no dictionary made per request.
    private var values: [(name: String, value: String)]

    public init(_ values: [String: String] = [:]) { self.values = values.map { (name: $0.key, value: $0.value) } }

    init(pairs: [(name: String, value: String)]) { values = pairs }

    /// The decoded value of `{name}`, or nil when the route has no such parameter.
    public subscript(name: String) -> String? { values.first { $0.name == name }?.value }
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
        if let segments = asciiPathSegments(path) { return segments }
        let trimmed = path.hasPrefix("/") ? path.dropFirst() : Substring(path)
        return trimmed.split(separator: "/", omittingEmptySubsequences: false)
    }

    /// ``pathSegments(_:)`` of an ASCII path (every path that came over the wire: the parser takes visible ASCII
    /// only), split at `/` bytes: in ASCII each byte is a Character and `/` joins no other into one, so the result
    /// is the same as splitting the Characters, without their grapheme-breaking cost. nil for any other path.
    private static func asciiPathSegments(_ path: String) -> [Substring]? {
        let utf8 = path.utf8
        func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        var segments: [Substring] = []
        // Over the stored bytes (a native string's, in place); a segment's ends are UTF-8 offsets, O(1) to index.
        let ascii = utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return false }
            var start = bytes.first == UInt8(ascii: "/") ? 1 : 0
            // One allocation, not one per doubling.
            segments.reserveCapacity(bytes[start...].reduce(1) { $1 == UInt8(ascii: "/") ? $0 + 1 : $0 })
            for offset in start..<bytes.count where bytes[offset] == UInt8(ascii: "/") {
                segments.append(path[index(start)..<index(offset)])
                start = offset + 1
            }
            segments.append(path[index(start)...])
            return true
        }
        return ascii == true ? segments : nil
    }
}

/// One registered route. Immutable once built.
struct Route: Sendable {
    let method: HTTPMethod
    let segments: [RouteSegment]
    let handler: RouterBuilder.Handler

    /// Whether `path` matches: its length and every exact segment (a `{name}` takes any). Allocates nothing, so
    /// the routes tried before the one that answers cost no dictionary each.
    func matches(_ path: [Substring]) -> Bool {
        guard path.count == segments.count else { return false }
        for (segment, actual) in zip(segments, path) {
            if case .exact(let text) = segment, text != actual { return false }
        }
        return true
    }

    /// The percent-decoded `{name}` values of a `path` that ``matches(_:)``; nil when one is malformed.
    func parameters(_ path: [Substring]) -> RouteParameters? {
        var decoded: [(name: String, value: String)] = []
        for (segment, actual) in zip(segments, path) {
            guard case .parameter(let name) = segment else { continue }
            guard let text = PercentDecoding.decode(actual) else { return nil }
            // A name used twice in one pattern: the last value, as a dictionary kept it.
            if let index = decoded.firstIndex(where: { $0.name == name }) { decoded.remove(at: index) }
            decoded.append((name: name, value: text))
        }
        return RouteParameters(pairs: decoded)
    }
}
