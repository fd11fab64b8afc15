import Dashboard
import HTTPServer
import JSON

/// A fixture upstream for config tests, on 127.0.0.1 port 0: `GET /v1/things?offset=&limit=` over `count`
/// items with offset drift (each page repeats the previous page's last item) and one id too large for Int64.
/// It answers 401 unless `Authorization: Bearer <token>`.
final class ConfigFixtureUpstream: Sendable {
    let server: HTTPServer
    let port: Int
    static let bigID = "12345678901234567890123"

    init(count: Int, token: String) throws {
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.eventLoopCount = 1
        server = HTTPServer(configuration: configuration, responder: ClosureResponder { request in
            if request.path == "/v1/echo" {  // an API that echoes the credentials it got in an HTTP-200 error
                let body: JSONValue = ["error": .string("token not valid: \(request.headers["Authorization"] ?? "")")]
                return .now(.json(body.serialized()))
            }
            guard request.headers["Authorization"] == "Bearer \(token)" else {
                return .now(.json(Array("{\"error\":\"unauthorized\"}".utf8), status: .forbidden))
            }
            let offset = Int(request.queryValue("offset") ?? "0") ?? 0
            let limit = Int(request.queryValue("limit") ?? "10") ?? 10
            // Offset drift: a page starts one item early, repeating the previous page's last item.
            let start = max(0, offset - 1)
            let end = min(count, start + limit)
            let items: [JSONValue] = start < end ? (start..<end).map { index in
                let id: JSONValue = index == 3 ? .bigInteger(Self.bigID) : .int(Int64(index + 1))
                return ["id": id, "name": .string("thing \(index + 1)")]
            } : []
            let body: JSONValue = ["results": .array(items), "total": .int(Int64(count))]
            return .now(.json(body.serialized()))
        })
        port = try server.start()
    }

    func stop() { server.shutdown() }

    /// A config over this upstream: table `things` (offset style) and table `others` (same upstream).
    func config(tokenReference: String = "${FIXTURE_TOKEN}", extraPagination: String = "") -> String {
        """
        {"tables": [
          {"name": "things", "title": "Things", "batchSize": 5,
           "request": {"url": "http://127.0.0.1:\(port)/v1/things", "headers": {"Authorization": "Bearer \(tokenReference)"}},
           "items": "results", "key": "id",
           "columns": [{"title": "ID", "path": "id", "format": "number"}, {"title": "Name", "path": "name"}],
           "pagination": {"style": "offset", "totalPath": "total"\(extraPagination)},
           "cache": {"ttlSeconds": 0, "prefetch": false}},
          {"name": "others", "batchSize": 5,
           "request": {"url": "http://127.0.0.1:\(port)/v1/things", "headers": {"Authorization": "Bearer \(tokenReference)"}},
           "items": "results", "columns": [{"path": "name"}],
           "pagination": {"style": "offset", "totalPath": "total"}}
        ]}
        """
    }
}
