import HTTPServer
import Tables

/// The Turbo dialect's demand (docs/DIALECTS.md): Turbo asks for more with a lazy `<turbo-frame src>` that GETs its
/// `src` once it scrolls into view, so `next` also answers a GET, but only Turbo's frame request: one carrying the
/// `Turbo-Frame` header, which no cross-site form, link or image can send (a cross-origin script's needs a CORS
/// preflight, refused for origins not in `allowedOrigins`). It loads the next batch as a POST does; the answer is
/// the empty frame Turbo looks for (the rows come on the stream); for a session that ended lately (or one another instance
/// held that is gone) the same frame, marked `Rowstream-Session: ended`, loading nothing.
extension ServerRoutes {
    func lazyFrameNext(_ request: HTTPRequest, target: (table: TableBinding, target: DemandTarget))
        throws(HTTPError) -> HTTPResult {
        guard let frame = request.headers[Self.turboFrameField], !frame.isEmpty else {
            throw HTTPError(.badRequest, "GET next is for Turbo's lazy frames (a Turbo-Frame header); POST next otherwise")
        }
        let answer = HTTPResponse.html(Array("<turbo-frame id=\"\(HTMLEscaping.escaped(frame))\"></turbo-frame>".utf8))
        switch target.target {
        case .here(let session):
            session.loadNext()
            return .now(answer)
        case .elsewhere(let owner, let id):
            return forward(RelayedDemand(kind: .next, table: target.table.name, session: id), to: owner, done: answer,
                           ended: answer)
        case .ended:
            return .now(Self.sessionEnded(answer))
        }
    }

    static let turboFrameField = "Turbo-Frame"
}
