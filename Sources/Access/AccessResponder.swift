import Foundation
import HTTPServer
import Sealing

/// The access layer in front of a server's routes (docs/SECURITY.md): decides who the viewer is (an API token, a
/// session cookie, a trusted proxy's headers, or ``Viewer/everyone`` in mode `none`) and refuses a request without a
/// valid credential before any route sees it: `401`, or in mode `users` a browser's page request goes to `/login`.
/// Routes then read ``Viewer/current`` to refuse a table or page (`403`) and to list only what the viewer may see.
/// `/healthz` answers everyone; `/metrics` follows ``MetricsAccess``; mode `users` adds `/login` and `/logout`
/// (``AccessResponder+Login.swift``).
///
/// Thread-safe: immutable but for ``LoginThrottle`` (thread-safe); `respond(to:)` runs on the connection's event
/// loop and does not block (a SHA-256 per token, an AES-SIV open per cookie; password checks run in `.later`).
package struct AccessResponder: HTTPResponder {
    let inner: any HTTPResponder
    let configuration: AccessConfiguration
    let mode: AccessMode
    /// Every table, and every page with its tables: what a viewer must see all of to read `/metrics` by default.
    let everything: (tables: [String], pages: [String: [String]])
    /// Seal and open session cookies (the operator's keys: rotation shared with resume tokens).
    let keys: SealingKeys
    let throttle: LoginThrottle
    /// Users by name.
    let users: [String: UserAccount]
    /// Checks sign-in passwords (yescrypt; tests count or hold the checks).
    package var passwordChecker = PasswordChecker.crypt

    /// `inner` behind the access layer of `configuration` in `mode` (from ``AccessConfiguration/validated``);
    /// session cookies sealed with `keys`.
    public init(inner: any HTTPResponder, configuration: AccessConfiguration, mode: AccessMode, tables: [String],
                pages: [String: [String]], keys: SealingKeys = .random()) {
        self.inner = inner
        self.configuration = configuration
        self.mode = mode
        self.keys = keys
        everything = (tables, pages)
        throttle = LoginThrottle(limits: configuration.loginLimits)
        users = Dictionary(configuration.users.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func respond(to request: HTTPRequest) -> HTTPResult {
        // Mode none without a metrics rule: no credential and no allow list to check.
        if mode == .open, configuration.metrics == nil { return answer(request, as: .everyone) }
        let segments = RouteSegment.pathSegments(request.path)
        if segments == ["healthz"] { return inner.respond(to: request) }
        if mode == .users, let answer = loginRoute(request, segments: segments) { return answer }
        let isMetrics = segments == ["metrics"]
        if isMetrics, let rule = configuration.metrics {
            guard readsMetrics(request, rule: rule) else { return .now(refusal(request)) }
            return inner.respond(to: request)
        }
        if mode == .proxy, let name = configuration.proxy?.duplicatedHeader(in: request) {
            return .now(HTTPError(.badRequest, "The \(name) header came more than once: the proxy must replace it, "
                                  + "not add to it (docs/SECURITY.md, \"Proxy\").").response)
        }
        guard let viewer = viewer(of: request) else { return .now(refusal(request)) }
        if isMetrics, !mayReadEverything(viewer) {
            return .now(HTTPError(.forbidden, "/metrics names every table: configure access.metrics").response)
        }
        return answer(request, as: viewer)
    }

    /// The inner responder's answer with ``Viewer/current`` bound to `viewer` (with the request's headers) while it is
    /// produced: now, in its `.later` task, and while a stream opens.
    private func answer(_ request: HTTPRequest, as viewer: Viewer) -> HTTPResult {
        .binding(Viewer.$current, to: viewer.sending(request.headers)) { inner.respond(to: request) }
    }

    /// The viewer `request` identifies; nil: none (a missing, wrong, expired or altered credential).
    func viewer(of request: HTTPRequest) -> Viewer? {
        if mode == .open { return .everyone }
        if mode == .proxy, let viewer = configuration.proxy?.viewer(of: request) { return viewer }
        if let header = request.headers[HTTPFieldName.authorization] {
            guard let presented = BearerCredential.token(from: header),
                  let token = APIToken.match(presented, in: configuration.tokens, now: Date())
            else { return nil }
            return Viewer(name: token.name, groups: token.groups)
        }
        if mode == .users, let user = signedInUser(request) { return Viewer(name: user.name, groups: user.groups) }
        return nil
    }

    /// The user whose valid session cookie came with `request` (a user no longer configured has none).
    func signedInUser(_ request: HTTPRequest) -> UserAccount? {
        guard let header = request.headers[HTTPFieldName.cookie],
              let value = CookieHeader.value(named: SessionCookie.name, in: header),
              let name = SessionCookie.open(value, keys: keys, now: Date())
        else { return nil }
        return users[name]
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

    /// `401` with `WWW-Authenticate: Bearer` (a request that sent a token is told it is invalid: RFC 6750 §3); in
    /// mode `users`, a browser asking for a page (GET or HEAD accepting `text/html`) is sent to `/login` (`303`).
    private func refusal(_ request: HTTPRequest) -> HTTPResponse {
        if mode == .users, request.method == .get || request.method == .head,
           request.headers[HTTPFieldName.accept]?.contains("text/html") == true {
            var response = HTTPResponse(status: .seeOther)
            response.headers.replaceOrAdd(name: HTTPFieldName.location, value: LoginDocument.location(next: request.target))
            return response
        }
        let sent = request.headers[HTTPFieldName.authorization] != nil
        let hint = mode == .users ? "sign in at /login, or send Authorization: Bearer TOKEN" : "send Authorization: Bearer TOKEN"
        var response = HTTPError(.unauthorized, sent ? "The credential is not valid (wrong or expired)."
                                 : "Not signed in: \(hint) (docs/SECURITY.md).").response
        let challenge = sent ? "Bearer realm=\"rowstream\", error=\"invalid_token\"" : "Bearer realm=\"rowstream\""
        response.headers.replaceOrAdd(name: HTTPFieldName.wwwAuthenticate, value: challenge)
        return response
    }
}
