import Foundation

/// The origin of a URL (RFC 6454): scheme, host and port, compared exactly. Redirects and next-page links are
/// only followed when their origin equals the configured upstream's.
///
/// A plain value: thread-safe.
public struct UpstreamOrigin: Sendable, Hashable, CustomStringConvertible {
    public let scheme: String
    public let host: String
    public let port: Int

    /// The origin of an absolute `http` or `https` URL; nil for anything else (relative, other schemes, no
    /// host, user info).
    public init?(url: String) {
        guard let components = URLComponents(string: url),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host?.lowercased(), !host.isEmpty,
              components.user == nil, components.password == nil
        else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = components.port ?? (scheme == "https" ? 443 : 80)
    }

    /// Whether `url` is an absolute URL of this very origin.
    public func contains(_ url: String) -> Bool {
        UpstreamOrigin(url: url) == self
    }

    /// `url` resolved against `base` (for relative next links), as an absolute string; nil if unparseable.
    static func resolve(_ url: String, against base: String) -> String? {
        guard let baseURL = URL(string: base), let resolved = URL(string: url, relativeTo: baseURL) else { return nil }
        return resolved.absoluteString
    }

    public var description: String { "\(scheme)://\(host):\(port)" }
}
