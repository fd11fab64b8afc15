import HTTPServer

/// The server's outermost responder: refuses forged state-changing requests (``SameOriginRule``: 403, before
/// any route runs, so a refused request starts no upstream fetch), and gives every answer, `.now` or `.later`,
/// routed or static, success or error, the ``SecurityHeaders``. Thread-safe: immutable.
struct GuardedResponder: HTTPResponder {
    let inner: any HTTPResponder
    let rule: SameOriginRule
    let headers: SecurityHeaders

    func respond(to request: HTTPRequest) -> HTTPResult {
        if let refusal = rule.refusal(of: request) {
            return .now(headers.applied(to: HTTPError(.forbidden, refusal).response))
        }
        switch inner.respond(to: request) {
        case .now(let response):
            return .now(headers.applied(to: response))
        case .later(let produce):
            let headers = headers
            return .later { headers.applied(to: await produce()) }
        }
    }
}
