import HTTPServer
import Tables

/// The Turbo dialect's demand (docs/DIALECTS.md): Turbo asks for more with a lazy `<turbo-frame src>` that GETs its
/// `src` once it scrolls into view, so `next` also answers a GET, but only Turbo's frame request: one carrying the
/// `Turbo-Frame` header, which no cross-site form, link or image can send (a cross-origin script's needs a CORS
/// preflight, refused for origins not in `allowedOrigins`). It loads the next batch as a POST does; the answer is
/// the empty frame Turbo looks for (the rows come on the stream); for a session that ended lately (nil) the same
/// frame, marked `Rowstream-Session: ended`, loading nothing.
extension ServerRoutes {
    func lazyFrameNext(_ request: HTTPRequest, session: ViewerSession?) throws(HTTPError) -> HTTPResult {
        guard let frame = request.headers[Self.turboFrameField], !frame.isEmpty else {
            throw HTTPError(.badRequest, "GET next is for Turbo's lazy frames (a Turbo-Frame header); POST next otherwise")
        }
        let answer = HTTPResponse.html(Array("<turbo-frame id=\"\(HTMLEscaping.escaped(frame))\"></turbo-frame>".utf8))
        guard let session else { return .now(Self.sessionEnded(answer)) }
        session.loadNext()
        return .now(answer)
    }

    static let turboFrameField = "Turbo-Frame"
}
