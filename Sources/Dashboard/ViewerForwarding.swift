import RowstreamKit
import Upstream

/// What of the viewer a config table sends upstream with each page request (config `"forward"`,
/// docs/CONFIG.md): headers and query parameters whose values name the viewer (`${viewer.user}`: the token's or the
/// user's name the access layer established), so an API that answers per user shows each viewer their own rows.
///
/// Such a table is partitioned by viewer: its caches and coalescing (``QueryCaches``), prefetch and the shared
/// store's keys (a source's own requests: ``PageSource/sharedScope(withOrigin:)``, hashed) per viewer; its resume
/// tokens and JSON proxy cursors sealed for one viewer (``TableBinding/viewerScoped``); never `live`.
///
/// Thread-safe: an immutable value.
public struct ViewerForwarding: Sendable {
    /// The placeholder replaced by the viewer's name.
    static let user = "${viewer.user}"

    /// Headers set on every page request (replacing any of the same name from `request.headers`).
    public var headers: [(name: String, value: String)] = []
    /// Query parameters set on every page request the table builds (replacing any of the same name).
    public var query: [(name: String, value: String)] = []

    /// Forwarding `headers` and `query` (values with ``user`` in them).
    init(headers: [(name: String, value: String)] = [], query: [(name: String, value: String)] = []) {
        self.headers = headers
        self.query = query
    }

    /// `template` as `viewer` sends it: every forwarded header and parameter set, `${viewer.user}` filled in.
    func applied(to template: PageRequestTemplate, viewer: Viewer) -> PageRequestTemplate {
        var template = template
        func fill(_ value: String) -> String { value.replacing(Self.user, with: viewer.name) }
        for (name, value) in headers {
            template.headers.removeAll { $0.name.lowercased() == name.lowercased() }
            template.headers.append((name, fill(value)))
        }
        for (name, value) in query {
            template.query.removeAll { $0.name == name }
            template.query.append((name, fill(value)))
        }
        return template
    }

    /// Reads `"forward": {"headers": {NAME: VALUE}, "query": {NAME: VALUE}}`: each value must contain
    /// `${viewer.user}`; a header's name is an HTTP token and its value has no CR, LF or NUL.
    init(_ reader: ConfigReader) throws(ConfigError) {
        var reader = reader
        for (name, value) in try reader.stringMap("headers") {
            let at = reader.keyPath("headers") + "." + name
            guard UpstreamRequest.isHeaderName(name) else {
                throw ConfigError(file: reader.file, keyPath: at, expected: "a header name (an HTTP token)")
            }
            guard value.contains(Self.user),
                  !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" })
            else {
                throw ConfigError(file: reader.file, keyPath: at,
                                  expected: "a header value with \(Self.user) in it, without CR, LF or NUL")
            }
            headers.append((name, value))
        }
        for (name, value) in try reader.stringMap("query") {
            guard value.contains(Self.user) else {
                throw ConfigError(file: reader.file, keyPath: reader.keyPath("query") + "." + name,
                                  expected: "a value with \(Self.user) in it")
            }
            query.append((name, value))
        }
        try reader.finish()
        if headers.isEmpty && query.isEmpty {
            throw ConfigError(file: reader.file, keyPath: reader.keyPath("headers"),
                              expected: "at least one header or query parameter naming the viewer")
        }
    }
}
