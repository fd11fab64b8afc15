import Foundation
import HTTPServer

/// CORS for the origins of ``SameOriginRule/allowedOrigins`` (docs/EMBED.md): a page of one of them may load the
/// embed script, its modules and CSS, open a table's stream and POST `next`, `reload` and `refresh`. Every other
/// origin gets no CORS header at all (its browser keeps its script from reading anything), and its POSTs stay
/// refused by the rule. `Access-Control-Allow-Credentials` only when ``SameOriginRule/allowsCredentials``.
extension SameOriginRule {
    /// The answer to a CORS preflight (`OPTIONS` with `Access-Control-Request-Method`), before any route or access
    /// check runs (a preflight carries no credentials): 204 with the CORS headers for an allowed origin, a plain
    /// 403 without them for any other. nil: not a preflight.
    func preflightAnswer(to request: HTTPRequest) -> HTTPResponse? {
        guard request.method == .options, request.headers[FieldName.origin] != nil,
              request.headers[CORSField.requestMethod] != nil
        else { return nil }
        guard let origin = allowedOrigin(of: request) else {
            return HTTPError(.forbidden, "cross-origin request refused: this origin is not in allowedOrigins").response
        }
        var response = HTTPResponse(status: .noContent)
        response.headers.replaceOrAdd(name: CORSField.allowMethods, value: "GET, HEAD, POST")
        response.headers.replaceOrAdd(name: CORSField.allowHeaders, value: HTTPFieldName.lastEventID)
        response.headers.replaceOrAdd(name: CORSField.maxAge, value: "600")
        return withCORS(response, origin: origin)
    }

    /// `response` with `Vary: Origin` whenever some origin is allowed (the answer depends on it), and the CORS
    /// headers when the request's `Origin` is allowed.
    func corsApplied(to response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        guard !allowedOrigins.isEmpty else { return response }
        var response = response
        let varies = response.headers.values(for: CORSField.vary).contains { value in
            value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "origin" }
        }
        if !varies {
            response.headers.add(name: CORSField.vary, value: FieldName.origin)
        }
        guard let origin = allowedOrigin(of: request) else { return response }
        return withCORS(response, origin: origin)
    }

    private func withCORS(_ response: HTTPResponse, origin: String) -> HTTPResponse {
        var response = response
        response.headers.replaceOrAdd(name: CORSField.allowOrigin, value: origin)
        if allowsCredentials { response.headers.replaceOrAdd(name: CORSField.allowCredentials, value: "true") }
        return response
    }

    /// The CORS header names (Fetch standard) read and written here.
    enum CORSField {
        static let allowOrigin = "Access-Control-Allow-Origin"
        static let allowCredentials = "Access-Control-Allow-Credentials"
        static let allowMethods = "Access-Control-Allow-Methods"
        static let allowHeaders = "Access-Control-Allow-Headers"
        static let maxAge = "Access-Control-Max-Age"
        static let requestMethod = "Access-Control-Request-Method"
        static let vary = "Vary"
    }
}
