import Foundation
import HTTPServer

/// The access layer in front of a server's routes (docs/SECURITY.md): decides who the viewer is (an API token, a
/// trusted proxy's headers, or ``Viewer/everyone`` in mode `none`) and answers `401` for a request without a valid
/// credential before any route sees it. Routes then read ``Viewer/current`` to refuse a table or page (`403`) and
/// to list only what the viewer may see. `/healthz` answers everyone; `/metrics` follows ``MetricsAccess``.
///
/// Thread-safe: immutable; `respond(to:)` runs on the connection's event loop and does not block (a SHA-256 per
/// token-bearing request).
public struct AccessResponder: HTTPResponder {
    let inner: any HTTPResponder
    let configuration: AccessConfiguration
    let mode: AccessMode
    /// Every table, and every page with its tables: what a viewer must see all of to read `/metrics` by default.
    let everything: (tables: [String], pages: [String: [String]])

    /// `inner` behind the access layer of `configuration` in `mode` (from ``AccessConfiguration/validated``).
    public init(inner: any HTTPResponder, configuration: AccessConfiguration, mode: AccessMode, tables: [String],
                pages: [String: [String]]) {
        self.inner = inner
        self.configuration = configuration
        self.mode = mode
        everything = (tables, pages)
    }

    public func respond(to request: HTTPRequest) -> HTTPResult {
        let segments = RouteSegment.pathSegments(request.path)
        if segments == ["healthz"] { return inner.respond(to: request) }
        let isMetrics = segments == ["metrics"]
        if isMetrics, let rule = configuration.metrics {
            guard readsMetrics(request, rule: rule) else { return .now(refusal(request, forMetrics: true)) }
            return inner.respond(to: request)
        }
        guard let viewer = viewer(of: request) else { return .now(refusal(request, forMetrics: false)) }
        if isMetrics, !mayReadEverything(viewer) {
            return .now(HTTPError(.forbidden, "/metrics names every table: configure access.metrics").response)
        }
        return Viewer.$current.withValue(viewer) { inner.respond(to: request) }
    }

    /// The viewer `request` identifies; nil: none (a missing, wrong or expired credential).
    func viewer(of request: HTTPRequest) -> Viewer? {
        if mode == .open { return .everyone }
        if mode == .proxy, let viewer = configuration.proxy?.viewer(of: request) { return viewer }
        guard let header = request.headers[HTTPFieldName.authorization],
              let presented = BearerCredential.token(from: header),
              let token = APIToken.match(presented, in: configuration.tokens, now: Date())
        else { return nil }
        return Viewer(name: token.name, groups: token.groups)
    }

    private func readsMetrics(_ request: HTTPRequest, rule: MetricsAccess) -> Bool {
        if let peer = request.peerAddress, rule.addresses.contains(peer) { return true }
        guard let header = request.headers[HTTPFieldName.authorization],
              let presented = BearerCredential.token(from: header)
        else { return false }
        return APIToken.match(presented, in: rule.tokens, now: Date()) != nil
    }

    private func mayReadEverything(_ viewer: Viewer) -> Bool {
        everything.tables.allSatisfy { configuration.admits(table: $0, viewer) }
            && everything.pages.allSatisfy { configuration.admits(page: $0.key, showing: $0.value, viewer) }
    }

    /// `401` with `WWW-Authenticate: Bearer` (a request that sent a token is told it is invalid: RFC 6750 §3).
    private func refusal(_ request: HTTPRequest, forMetrics: Bool) -> HTTPResponse {
        let sent = request.headers[HTTPFieldName.authorization] != nil
        var response = HTTPError(.unauthorized, sent ? "The credential is not valid (wrong or expired)."
                                 : "Sign in: send Authorization: Bearer TOKEN (docs/SECURITY.md).").response
        let challenge = sent ? "Bearer realm=\"rowstream\", error=\"invalid_token\"" : "Bearer realm=\"rowstream\""
        response.headers.replaceOrAdd(name: HTTPFieldName.wwwAuthenticate, value: challenge)
        return response
    }
}
