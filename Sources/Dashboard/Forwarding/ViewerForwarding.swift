import HTTPServer
import RowstreamKit
import Upstream

/// What of the viewer a config table sends upstream with each page request (config `"forward"`, docs/CONFIG.md):
/// headers and query parameters whose values hold the viewer's name (`${viewer.user}`), a header of the viewer's own
/// request (`${viewer.header.NAME}`) or a cookie of it (`${viewer.cookie.NAME}`): ``ForwardedValue``. So an API that
/// answers per user, or per credential, shows each viewer their own rows.
///
/// Such a table is partitioned by identity: a keyed hash of everything it forwards for a viewer (``Forwarded``,
/// never the values). Its caches and coalescing (``QueryCaches``), prefetch and the shared store's keys, its resume
/// tokens and JSON proxy cursors (sealed for one identity: ``TableBinding/partition``) and its live feeds
/// (one per identity) are that identity's. A viewer without a forwarded header or cookie (or with one that is not
/// valid) is refused on every route of the table, and the upstream is never called with an empty credential.
///
/// Thread-safe: an immutable value.
public struct ViewerForwarding: Sendable {
    /// Most bytes of a header's or cookie's value forwarded; longer: refused.
    static let maxValueBytes = 4_096

    /// Headers set on every page request (replacing any of the same name from `request.headers`).
    let headers: [(name: String, value: ForwardedValue)]
    /// Query parameters set on every page request the table builds (replacing any of the same name).
    let query: [(name: String, value: ForwardedValue)]
    /// Everything the values read of the viewer, each once, in order: the identity's parts.
    let sources: [ForwardedValue.Source]

    /// What one viewer forwards: each placeholder's value, and their identity.
    struct Forwarded: Sendable {
        /// Base64url of HMAC-SHA-256 of everything forwarded, under a key derived from the operator's current
        /// sealing key (``SealingKeys/identity(of:)``).
        let identity: String
        fileprivate let values: [ForwardedValue.Source: String]

        /// The forwarded headers' and cookies' values: redacted from every message shown or logged.
        var secrets: [String] {
            values.compactMap { source, value in source == .user ? nil : value }
        }
    }

    /// Forwarding `headers` and `query` (values with placeholders, as in a config).
    init(headers: [(name: String, value: String)] = [], query: [(name: String, value: String)] = []) throws(ConfigError) {
        func parse(_ pairs: [(name: String, value: String)]) throws(ConfigError) -> [(name: String, value: ForwardedValue)] {
            var parsed: [(name: String, value: ForwardedValue)] = []
            for (name, value) in pairs {
                parsed.append((name, try ForwardedValue(parsing: value, file: "code", keyPath: "forward." + name)))
            }
            return parsed
        }
        self.init(headers: try parse(headers), query: try parse(query))
    }

    private init(headers: [(name: String, value: ForwardedValue)], query: [(name: String, value: ForwardedValue)]) {
        self.headers = headers
        self.query = query
        sources = Array(Set((headers + query).flatMap { $0.value.sources })).sorted()
    }

    /// What `viewer` forwards, with their identity under `keys`; or why they cannot be served (``ViewerPartition``'s
    /// refusal: names what is missing, never a value). A header sent twice, a value with a control character or
    /// longer than ``maxValueBytes``, or an empty one is refused.
    func resolve(_ viewer: Viewer, keys: SealingKeys) -> Result<Forwarded, ForwardingRefusal> {
        var values: [ForwardedValue.Source: String] = [:]
        var material: [UInt8] = []
        for source in sources {
            let value: String?
            switch source {
            case .user:
                value = viewer.isEveryone || viewer.name.isEmpty ? nil : viewer.name
            case .header(let name):
                let sent = viewer.headers.values(for: name)
                guard sent.count <= 1 else { return .failure(ForwardingRefusal("the \(name) header came more than once")) }
                value = sent.first
            case .cookie(let name):
                value = viewer.headers.values(for: HTTPFieldName.cookie).lazy
                    .compactMap { CookieHeader.value(named: name, in: $0) }.first
            }
            guard let value, !value.isEmpty else { return .failure(ForwardingRefusal(source.missing)) }
            guard value.utf8.count <= Self.maxValueBytes,
                  !value.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F })
            else { return .failure(ForwardingRefusal("the value of \(source) is not valid (a control character, or "
                                                      + "longer than \(Self.maxValueBytes) bytes)")) }
            values[source] = value
            // Each part as its placeholder and its length-prefixed bytes: no two sets of values encode alike.
            for text in [source.description, value] {
                let bytes = Array(text.utf8)
                material += withUnsafeBytes(of: UInt32(bytes.count).bigEndian, Array.init) + bytes
            }
        }
        return .success(Forwarded(identity: keys.identity(of: material), values: values))
    }

    /// `template` as `forwarded` sends it: every forwarded header and parameter set, placeholders filled in.
    func applied(to template: PageRequestTemplate, _ forwarded: Forwarded) -> PageRequestTemplate {
        var template = template
        for (name, value) in headers {
            template.headers.removeAll { $0.name.lowercased() == name.lowercased() }
            template.headers.append((name, value.filled(forwarded.values)))
        }
        for (name, value) in query {
            template.query.removeAll { $0.name == name }
            template.query.append((name, value.filled(forwarded.values)))
        }
        return template
    }

    /// Why a table forwarding this cannot be served in access `mode` (a start-up error), or nil. `${viewer.user}`
    /// needs a mode that names viewers; the viewer's `Authorization` is Rowstream's own API token in every mode
    /// but `none`; a trusted proxy's user and groups headers are `${viewer.user}` (and its groups) already.
    func refusal(mode: AccessMode, proxy: TrustedProxy?) -> String? {
        if mode == .open, sources.contains(.user) {
            return "forwards the viewer's name (${viewer.user}): it needs an access mode that names each viewer "
                + "(tokens, users or proxy; docs/SECURITY.md), not none"
        }
        for case .header(let name) in sources {
            if mode != .open, name.lowercased() == HTTPFieldName.authorization.lowercased() {
                return "forwards the viewer's Authorization header, which access mode \(mode.rawValue) reads as "
                    + "Rowstream's own API token (Bearer): it would send that token upstream. Forward the upstream "
                    + "credential in another header or a cookie, or use access mode none (docs/SECURITY.md)"
            }
            if let proxy, mode == .proxy, [proxy.userHeader, proxy.groupsHeader].contains(where: { $0.lowercased() == name.lowercased() }) {
                return "forwards the trusted proxy's \(name) header: use ${viewer.user}, which is that header "
                    + "believed only from the proxy's addresses"
            }
        }
        return nil
    }

    /// Reads `"forward": {"headers": {NAME: VALUE}, "query": {NAME: VALUE}}`: each value holds at least one
    /// placeholder (``ForwardedValue``); a header's name is an HTTP token and its value has no CR, LF or NUL. The
    /// viewer's whole `Cookie` header and Rowstream's own session cookie are never forwarded.
    init(_ reader: ConfigReader) throws(ConfigError) {
        var reader = reader
        var headers: [(name: String, value: ForwardedValue)] = []
        var query: [(name: String, value: ForwardedValue)] = []
        for (key, isHeader) in [("headers", true), ("query", false)] {
            for (name, text) in try reader.stringMap(key) {
                let at = reader.keyPath(key) + "." + name
                guard !isHeader || UpstreamRequest.isHeaderName(name) else {
                    throw ConfigError(file: reader.file, keyPath: at, expected: "a header name (an HTTP token)")
                }
                let value = try ForwardedValue(parsing: text, file: reader.file, keyPath: at)
                guard !value.sources.isEmpty,
                      !text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" })
                else {
                    throw ConfigError(file: reader.file, keyPath: at, expected: "a value with ${viewer.user}, "
                                      + "${viewer.header.NAME} or ${viewer.cookie.NAME} in it, without CR, LF or NUL")
                }
                for source in value.sources {
                    if case .header(let header) = source, header.lowercased() == HTTPFieldName.cookie.lowercased() {
                        throw ConfigError(file: reader.file, keyPath: at, expected: "one cookie as "
                                          + "${viewer.cookie.NAME}, never the whole Cookie header (it carries "
                                          + "Rowstream's own session cookie)")
                    }
                    if case .cookie(SessionCookie.name) = source {
                        throw ConfigError(file: reader.file, keyPath: at, expected: "another cookie: "
                                          + "\(SessionCookie.name) is Rowstream's own session and is never forwarded")
                    }
                }
                if isHeader { headers.append((name, value)) } else { query.append((name, value)) }
            }
        }
        try reader.finish()
        if headers.isEmpty && query.isEmpty {
            throw ConfigError(file: reader.file, keyPath: reader.keyPath("headers"),
                              expected: "at least one header or query parameter forwarding the viewer")
        }
        self.init(headers: headers, query: query)
    }
}

/// What a viewer forwards shows only its identity, never a value (`print`, `dump`, a test failure).
extension ViewerForwarding.Forwarded: CustomStringConvertible, CustomReflectable {
    var description: String { "Forwarded(\(identity))" }
    var customMirror: Mirror { Mirror(self, children: ["identity": identity]) }
}

/// Why a viewer cannot be served by a forwarding table: said to them (`403`), naming what is missing.
struct ForwardingRefusal: Error, Sendable {
    let reason: String
    init(_ reason: String) { self.reason = reason }

    /// The whole message a viewer gets.
    var message: String {
        "This table shows each viewer their own data from its upstream, and \(reason) to send there "
            + "(docs/SECURITY.md)."
    }
}
