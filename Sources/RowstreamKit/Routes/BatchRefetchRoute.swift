import HTTPServer

/// `GET /tables/{name}/rows?after=TOKEN`: the rows of the batch that follows a resume token, as the same HTML
/// fragment a `rows` event carries (docs/PROTOCOL.md, "Fetching a batch again").
///
/// The page uses it to bring back rows it pruned from a bounded DOM: it keeps, per batch, the token of the
/// batch before (empty for the first batch). One batch (one loader call) per request, like a batch of the stream; the
/// viewer's stream and session are not touched. `TOKEN` may also be a page stream's id (``DashboardPageToken``): its entry
/// for this table is used. The rows are loaded under the request's `p.*` choice and search (the route checks them as the
/// stream's: a token does not carry the query it was made under), so a pruned batch comes back as it was shown. A pure
/// function of the table: safe from any thread.
struct BatchRefetchRoute: Sendable {
    let table: TableBinding
    /// Who asked: the rows are loaded for them.
    let rows: RowRequest

    func respond(to request: HTTPRequest) throws(HTTPError) -> HTTPResult {
        var raw = request.queryValue("after") ?? ""
        // A page stream's id: this table's own token inside it.
        if raw.hasPrefix("p1.") { raw = DashboardPageToken.resume(in: raw, table: table.name) ?? "unreadable" }
        var cursor = TablePosition.first
        var offset = 0
        if !raw.isEmpty {
            guard let token = ResumeToken(decoding: raw, table: table.name) else {
                throw HTTPError(.badRequest, "unreadable resume token")
            }
            offset = token.offset
            switch token.position {
            case .start: break
            case .after(let next): cursor = .cursor(next)
            case .end, .finished: return .now(Self.fragment([]))
            }
        }
        let table = table, rows = rows, start = offset, position = cursor
        return .later {
            do throws(LoadFailure) {
                let batch = try await table.loadBatch(at: position, for: rows)
                return Self.fragment(table.renderer.renderRows(batch.rows, startIndex: start))
            } catch {
                return .text(error.message + "\n", status: .badGateway)
            }
        }
    }

    private static func fragment(_ html: [UInt8]) -> HTTPResponse {
        var response = HTTPResponse.html(html)
        response.headers.replaceOrAdd(name: HTTPFieldName.cacheControl, value: "no-store")
        return response
    }
}
