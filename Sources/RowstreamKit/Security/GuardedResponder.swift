import HTTPServer

/// The server's outermost responder: refuses forged state-changing requests (``SameOriginRule``: 403, before
/// any route runs, so a refused request starts no upstream fetch), and gives every answer, `.now` or `.later`,
/// routed or static, success or error, the ``SecurityHeaders``; answers CORS preflights and gives the answers to an
/// allowed origin its CORS headers (``SameOriginRule+CORS``, docs/EMBED.md). Thread-safe: immutable.
struct GuardedResponder: HTTPResponder {
    let inner: any HTTPResponder
    let rule: SameOriginRule
    let headers: SecurityHeaders

    func respond(to request: HTTPRequest) -> HTTPResult {
        if let preflight = rule.preflightAnswer(to: request) { return .now(headers.applied(to: preflight)) }
        if let refusal = rule.refusal(of: request) {
            return .now(finished(HTTPError(.forbidden, refusal).response, for: request))
        }
        switch inner.respond(to: request) {
        case .now(let response):
            return .now(finished(response, for: request))
        case .later(let produce):
            let guarded = self
            return .later { guarded.finished(await produce(), for: request) }
        }
    }

    /// `response` with the security headers and, for an allowed origin, the CORS ones.
    private func finished(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        rule.corsApplied(to: headers.applied(to: response), for: request)
    }
}
