import HTTPServer

/// Whether a request may change state (docs/SECURITY.md, "Forged requests"): another site open in the same browser
/// must not make a viewer's browser call `next`, `reload` or `refresh`. Applies to every method but GET, HEAD and
/// OPTIONS. In order:
/// 1. an `Origin` in ``allowedOrigins`` passes;
/// 2. with `Sec-Fetch-Site` (every current browser sends it): `same-origin` and `none` (typed or bookmarked) pass,
///    `same-site` and `cross-site` do not;
/// 3. else with `Origin`: it passes only if its host and port are the request's own (`Host`); `null` never does;
/// 4. else (neither header: not a browser, e.g. curl or a script, which no other site can drive) it passes.
///
/// The same ``allowedOrigins`` are the only origins that get CORS headers (``SameOriginRule+CORS``, docs/EMBED.md):
/// one list says which other sites' pages may use this server, for reads and POSTs alike.
///
/// The scheme is not compared: the server speaks plain HTTP and a TLS-terminating proxy in front of it is not
/// configured (`X-Forwarded-*` headers are never believed here), so `Host` is all that says where the request went.
/// Thread-safe: an immutable value.
struct SameOriginRule: Sendable {
    /// Origins (`https://embed.example`) whose requests pass as if same-origin, as sent in `Origin` (lower-cased).
    let allowedOrigins: Set<String>
    /// Whether those origins' pages may send credentials (cookies): `Access-Control-Allow-Credentials: true`.
    let allowsCredentials: Bool

    init(allowedOrigins: [String] = [], allowsCredentials: Bool = false) {
        self.allowedOrigins = Set(allowedOrigins.compactMap(Self.normalizedOrigin))
        self.allowsCredentials = allowsCredentials
    }

    /// The request's `Origin`, normalized, when it is one of ``allowedOrigins``; else nil.
    func allowedOrigin(of request: HTTPRequest) -> String? {
        guard let origin = request.headers[FieldName.origin], let normalized = Self.normalizedOrigin(origin),
              allowedOrigins.contains(normalized)
        else { return nil }
        return normalized
    }

    /// nil if `request` may go on; else why not (the 403's message).
    func refusal(of request: HTTPRequest) -> String? {
        if request.method == .get || request.method == .head || request.method == .options { return nil }
        if allowedOrigin(of: request) != nil { return nil }
        let origin = request.headers[FieldName.origin]
        if let site = request.headers[FieldName.secFetchSite] {
            switch site.trimmed.lowercased() {
            case "same-origin", "none": return nil
            default: return "cross-site request refused: this server takes state-changing requests only from its own pages (Sec-Fetch-Site: \(site.trimmed.prefix(32)))"
            }
        }
        guard let origin else { return nil }
        guard let host = request.headers[HTTPFieldName.host], let own = Self.authority(host: host),
              let sender = Self.authority(origin: origin), sender == own
        else { return "cross-origin request refused: this server takes state-changing requests only from its own pages (Origin does not match Host)" }
        return nil
    }

    /// `Origin` as `scheme://host[:port]` in lower case, the default port left out; nil if it is not one (`null`).
    static func normalizedOrigin(_ origin: String) -> String? {
        let text = origin.trimmed.lowercased()
        guard let schemeEnd = text.range(of: "://") else { return nil }
        let scheme = text[..<schemeEnd.lowerBound]
        guard scheme == "http" || scheme == "https", let authority = authority(origin: text) else { return nil }
        return scheme + "://" + authority.host + (authority.port.map { ":\($0)" } ?? "")
    }

    /// An authority: host in lower case (an IPv6 literal with its brackets) and port; a port that is its scheme's
    /// default, or none, is nil.
    struct Authority: Equatable {
        let host: String
        let port: Int?
    }

    /// The authority of an `Origin` value (`http://127.0.0.1:8080`); nil for `null`, a path, or anything else.
    static func authority(origin: String) -> Authority? {
        let text = origin.trimmed.lowercased()
        let defaultPort: Int
        let rest: Substring
        if text.hasPrefix("http://") {
            defaultPort = 80
            rest = text.dropFirst(7)
        } else if text.hasPrefix("https://") {
            defaultPort = 443
            rest = text.dropFirst(8)
        } else {
            return nil
        }
        guard let parsed = authority(rest) else { return nil }
        return parsed.port == defaultPort ? Authority(host: parsed.host, port: nil) : parsed
    }

    /// The authority of a `Host` value (`127.0.0.1:8080`, `example.com`); ports 80 and 443 count as none, since the
    /// request's scheme is not known here.
    static func authority(host: String) -> Authority? {
        guard let parsed = authority(Substring(host.trimmed.lowercased())) else { return nil }
        return parsed.port == 80 || parsed.port == 443 ? Authority(host: parsed.host, port: nil) : parsed
    }

    /// `host[:port]` with nothing else (no path, user or spaces).
    private static func authority(_ text: Substring) -> Authority? {
        guard !text.isEmpty, !text.contains(where: { $0 == "/" || $0 == "@" || $0 == " " || $0 == "?" || $0 == "#" })
        else { return nil }
        var host = text
        var port: Int? = nil
        let hostEnd = text.hasPrefix("[") ? text.firstIndex(of: "]").map(text.index(after:)) : text.firstIndex(of: ":")
        guard let hostEnd = hostEnd ?? (text.hasPrefix("[") ? nil : text.endIndex) else { return nil }
        host = text[..<hostEnd]
        let tail = text[hostEnd...]
        if !tail.isEmpty {
            guard tail.first == ":", let number = Int(tail.dropFirst()), (0...65_535).contains(number) else { return nil }
            port = number
        }
        guard !host.isEmpty else { return nil }
        return Authority(host: String(host), port: port)
    }

    /// The request header names read here.
    enum FieldName {
        /// RFC 6454: the origin of the document that sent the request (`null` for opaque ones).
        static let origin = "Origin"
        /// Fetch Metadata: how the request's initiator relates to its target.
        static let secFetchSite = "Sec-Fetch-Site"
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmed: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
