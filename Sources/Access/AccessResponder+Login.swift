import Foundation
import HTTPServer

/// Mode `users`: `GET /login` (the form), `POST /login` (sign in: a session cookie and `303` to `next`), `POST
/// /logout` (the cookie removed, `303` to `/login`), and the login page's stylesheet and icon for everyone.
extension AccessResponder {
    /// The answer to a sign-in route; nil for any other request.
    func loginRoute(_ request: HTTPRequest, segments: [Substring]) -> HTTPResult? {
        switch (request.method, segments) {
        case (.get, ["login"]), (.head, ["login"]):
            let next = LoginDocument.localPath(request.queryValue("next"))
            return .now(LoginDocument.response(message: nil, next: next, signedIn: signedInUser(request)?.name))
        case (.post, ["login"]):
            return .later { await signIn(request) }
        case (.post, ["logout"]):
            var response = HTTPResponse(status: .seeOther)
            response.headers.replaceOrAdd(name: HTTPFieldName.location, value: "/login")
            response.headers.add(name: HTTPFieldName.setCookie, value: SessionCookie.clearCookie(secure: isSecure(request)))
            return .now(response)
        case (.get, ["app.css"]), (.head, ["app.css"]), (.get, ["favicon.svg"]), (.head, ["favicon.svg"]):
            return inner.respond(to: request)
        default:
            return nil
        }
    }

    /// Checks the form's `user` and `password` (libcrypt, off the event loop): `303` to `next` with the cookie, or the
    /// form again with `401`; `429` with `Retry-After` past the ``LoginThrottle``'s limits, without a check. The attempt
    /// is counted before the check (``LoginThrottle/reserve(user:address:now:)``) and settled after it.
    private func signIn(_ request: HTTPRequest) async -> HTTPResponse {
        let name = request.formValue("user") ?? ""
        let password = request.formValue("password") ?? ""
        let next = LoginDocument.localPath(request.formValue("next"))
        let attempt: LoginThrottle.Attempt
        switch throttle.reserve(user: name, address: clientAddress(request)) {
        case .success(let reserved):
            attempt = reserved
        case .failure(let refusal):
            let seconds = max(1, Int(refusal.retryAfter.components.seconds) + 1)
            var response = LoginDocument.response(status: .tooManyRequests,
                                              message: "Too many failed sign-ins: try again in \(seconds) s.",
                                              next: next, user: name)
            response.headers.replaceOrAdd(name: HTTPFieldName.retryAfter, value: String(seconds))
            return response
        }
        let account = users[name]
        // An unknown name costs a hash check too, so the time does not tell which names exist.
        let valid = await passwordChecker.verify(password, account?.passwordHash ?? Self.unknownUserHash) && account != nil
        throttle.settle(attempt, failed: !valid)
        guard valid, let account else {
            return LoginDocument.response(status: .unauthorized, message: "Wrong user name or password.", next: next,
                                      user: name)
        }
        let lifetime = Int(configuration.sessionLifetime.components.seconds)
        let cookie = SessionCookie.seal(user: account.name, expires: Date(timeIntervalSinceNow: Double(lifetime)), keys: keys)
        var response = HTTPResponse(status: .seeOther)
        response.headers.replaceOrAdd(name: HTTPFieldName.location, value: next)
        response.headers.add(name: HTTPFieldName.setCookie,
                             value: SessionCookie.setCookie(cookie, lifetime: lifetime, secure: isSecure(request)))
        return response
    }

    /// Whether cookies get `Secure`: configured, or a trusted proxy says the client used https.
    func isSecure(_ request: HTTPRequest) -> Bool {
        if configuration.secureCookies { return true }
        guard let peer = request.peerAddress, configuration.proxy?.addresses.contains(peer) == true else { return false }
        return request.headers[HTTPFieldName.xForwardedProto]?.lowercased() == "https"
    }

    /// The address a sign-in counts against: the peer's, or behind a trusted proxy (``TrustedProxy/addresses``) the
    /// last `X-Forwarded-For` entry, the client the proxy itself saw (earlier entries are the client's own claims),
    /// of the last such field (a proxy that adds a field of its own rather than appending to the client's).
    public func clientAddress(_ request: HTTPRequest) -> UInt32 {
        let peer = request.peerAddress ?? 0
        guard configuration.proxy?.addresses.contains(peer) == true,
              let forwarded = request.headers.values(for: HTTPFieldName.xForwardedFor).last?.split(separator: ",").last,
              let client = IPv4Address.parse(forwarded.trimmingCharacters(in: .whitespaces))
        else { return peer }
        return client
    }

    /// A yescrypt hash of a random password: what an unknown user name is checked against.
    private static let unknownUserHash = PasswordHash.make(APIToken.random()) ?? "$y$j9T$unknown$"
}
