import HTTPServer

/// A reverse proxy that authenticates viewers (oauth2-proxy and the like) and names them in headers: believed only
/// on connections from one of ``addresses`` (the TCP peer, never a header's claim). A request from anywhere else
/// that carries the headers is treated as carrying none. From a proxy, either header sent more than once is refused
/// (``duplicatedHeader(in:)``): a proxy that adds its header instead of replacing the client's (HAProxy
/// `add-header`, Caddy `+header`) would otherwise let the client's own value, the first, name the viewer.
///
/// Thread-safe: a value.
public struct TrustedProxy: Sendable, Equatable {
    /// The proxies' IPv4 addresses (host byte order: ``IPv4Address/parse(_:)``).
    public var addresses: Set<UInt32>
    /// The header naming the viewer; `X-Forwarded-User` by default.
    public var userHeader = "X-Forwarded-User"
    /// The header listing the viewer's groups, comma-separated; `X-Forwarded-Groups` by default.
    public var groupsHeader = "X-Forwarded-Groups"
    /// Where a viewer signs out of the proxy (oauth2-proxy: `/oauth2/sign_out`): the pages' Sign out link. A path on
    /// this host (`/...`) or an http(s) URL; nil: the pages show the viewer's name without Sign out (docs/SECURITY.md
    /// "Signed-in header").
    public var logoutURL: String?

    public init(addresses: Set<UInt32> = []) {
        self.addresses = addresses
    }

    /// Whether `url` may be a ``logoutURL``: a local path (`/...`, not `//host` nor `/\host`) or an absolute http(s)
    /// URL, printable ASCII without quotes or angle brackets, at most 2,048 bytes.
    public static func isLogoutURL(_ url: String) -> Bool {
        let lowered = url.lowercased()
        let local = url.hasPrefix("/") && !url.hasPrefix("//") && !url.hasPrefix("/\\")
        let absolute = lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
        return (local || absolute) && url.utf8.count <= 2_048
            && url.utf8.allSatisfy { (0x21...0x7E).contains($0) && $0 != 0x22 && $0 != 0x27 && $0 != 0x3C && $0 != 0x3E }
    }

    /// Most bytes of a user name or of the groups header believed; longer: no viewer.
    static let maxHeaderLength = 4_096

    /// Whether `request` came from one of ``addresses``.
    func isFromProxy(_ request: HTTPRequest) -> Bool {
        request.peerAddress.map { addresses.contains($0) } ?? false
    }

    /// The name of the identity header (``userHeader`` or ``groupsHeader``) a request from a proxy of ``addresses``
    /// carries more than once; nil if none does, or the request came from elsewhere (its headers are ignored).
    func duplicatedHeader(in request: HTTPRequest) -> String? {
        guard isFromProxy(request) else { return nil }
        return [userHeader, groupsHeader].first { request.headers.values(for: $0).count > 1 }
    }

    /// The viewer `request` names, if it came from a proxy of ``addresses`` and names a non-empty user, each
    /// identity header at most once.
    func viewer(of request: HTTPRequest) -> Viewer? {
        guard isFromProxy(request), duplicatedHeader(in: request) == nil,
              let user = request.headers[userHeader]?.trimmingSpaces, !user.isEmpty,
              user.utf8.count <= Self.maxHeaderLength
        else { return nil }
        let list = request.headers[groupsHeader] ?? ""
        guard list.utf8.count <= Self.maxHeaderLength else { return nil }
        let groups = list.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
        return Viewer(name: user, groups: Set(groups))
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        let bytes = utf8.drop(while: { $0 == 0x20 || $0 == 0x09 })
        let end = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })
        return end.map { String(decoding: bytes[...$0], as: UTF8.self) } ?? ""
    }
}
