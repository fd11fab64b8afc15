import Upstream

/// One forwarded header's or query parameter's value as configured (`"forward"`, docs/CONFIG.md): text with
/// placeholders for what the viewer sent: `${viewer.user}` (the name the access layer established),
/// `${viewer.header.NAME}` (a header of the viewer's request), `${viewer.cookie.NAME}` (a cookie of it).
/// `$$` is a literal `$`.
///
/// Thread-safe: an immutable value.
struct ForwardedValue: Sendable, Equatable {
    /// What a placeholder stands for.
    enum Source: Sendable, Hashable, Comparable, CustomStringConvertible {
        case user
        case header(String)
        case cookie(String)

        var description: String {
            switch self {
            case .user: "${viewer.user}"
            case .header(let name): "${viewer.header.\(name)}"
            case .cookie(let name): "${viewer.cookie.\(name)}"
            }
        }

        /// What a viewer is told when it is missing (its name, never a value).
        var missing: String {
            switch self {
            case .user: "no viewer is known"
            case .header(let name): "the request has no \(name) header"
            case .cookie(let name): "the request has no \(name) cookie"
            }
        }
    }

    enum Part: Sendable, Equatable {
        case text(String)
        case placeholder(Source)
    }

    let parts: [Part]

    /// Every placeholder in it.
    var sources: [Source] {
        parts.compactMap { if case .placeholder(let source) = $0 { source } else { nil } }
    }

    /// `text` parsed; a `$` that starts no placeholder, an unknown placeholder, or a header or cookie name that is
    /// not an HTTP token is an error at `keyPath` of `file`.
    init(parsing text: String, file: String, keyPath: String) throws(ConfigError) {
        var parts: [Part] = []
        var literal = ""
        try ConfigEnvironment.scan(text, literal: { literal += $0 }, placeholder: { (inside: Substring) throws(ConfigError) in
            guard let source = Self.source(String(inside)) else {
                throw ConfigError(file: file, keyPath: keyPath, expected: "${viewer.user}, ${viewer.header.NAME} or "
                                  + "${viewer.cookie.NAME} (NAME an HTTP token), not ${\(inside.prefix(64))}")
            }
            if !literal.isEmpty { parts.append(.text(literal)) }
            literal = ""
            parts.append(.placeholder(source))
        }, stray: ConfigError(file: file, keyPath: keyPath, expected: "a placeholder ${viewer.user}, "
                              + "${viewer.header.NAME} or ${viewer.cookie.NAME} (or $$) after '$'"))
        if !literal.isEmpty { parts.append(.text(literal)) }
        self.parts = parts
    }

    private static func source(_ text: String) -> Source? {
        if text == "viewer.user" { return .user }
        for (prefix, make) in [("viewer.header.", Source.header), ("viewer.cookie.", Source.cookie)]
        where text.hasPrefix(prefix) {
            let name = String(text.dropFirst(prefix.count))
            return UpstreamRequest.isHeaderName(name) ? make(name) : nil
        }
        return nil
    }

    /// The value with every placeholder replaced by `values[source]`.
    func filled(_ values: [Source: String]) -> String {
        parts.map { part in
            switch part {
            case .text(let text): text
            case .placeholder(let source): values[source] ?? ""
            }
        }.joined()
    }
}
