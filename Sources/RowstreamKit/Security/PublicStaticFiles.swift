import HTTPServer

/// The page's static files (Public/: scripts, stylesheets, icons) for every origin: their successful answers carry
/// `Access-Control-Allow-Origin: *` (docs/EMBED.md, "Server"). They hold no data and are the same for everyone,
/// and without credentials (`*` never allows them) a cross-origin script reads only what an anonymous request
/// gets (in an access mode: the `401`, which stays without it). So `<rowstream-table>` on a page whose origin is
/// not in `allowedOrigins` still runs, and says so in the element, instead of being refused as a module and left
/// blank. An allowed origin's answers get its own origin instead (``SameOriginRule/corsApplied(to:for:)``).
/// Thread-safe: immutable.
struct PublicStaticFiles: HTTPResponder {
    let files: StaticFiles

    func respond(to request: HTTPRequest) -> HTTPResult {
        switch files.respond(to: request) {
        case .now(let response): .now(Self.opened(response))
        case .later(let produce): .later { Self.opened(await produce()) }
        }
    }

    /// A successful answer (2xx, or a `304` revalidation) readable by any origin.
    static func opened(_ response: HTTPResponse) -> HTTPResponse {
        guard (200..<300).contains(response.status.code) || response.status.code == 304 else { return response }
        var response = response
        response.headers.replaceOrAdd(name: SameOriginRule.CORSField.allowOrigin, value: "*")
        return response
    }
}
