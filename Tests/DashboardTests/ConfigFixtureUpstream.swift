import Foundation
import TestSupport

/// A fixture upstream for config tests (the shared `FixtureServer`): `GET /v1/things?offset=&limit=` over `count`
/// items with offset drift (each page repeats the previous page's last item) and one id too large for Int64.
/// It answers 403 unless `Authorization: Bearer <token>`.
final class ConfigFixtureUpstream: Sendable {
    let server: FixtureServer
    let port: Int
    static let bigID = "12345678901234567890123"

    init(count: Int, token: String) throws {
        server = try FixtureServer { request in
            if request.path == "/v1/echo" {  // an API that echoes the credentials it got in an HTTP-200 error
                return .json(Self.object(["error": "token not valid: \(request.header("Authorization") ?? "")"]))
            }
            guard request.header("Authorization") == "Bearer \(token)" else {
                return .json("{\"error\":\"unauthorized\"}", status: 403)
            }
            let offset = Int(request.query["offset"] ?? "0") ?? 0
            let limit = Int(request.query["limit"] ?? "10") ?? 10
            // Offset drift: a page starts one item early, repeating the previous page's last item.
            let start = max(0, offset - 1)
            let end = min(count, start + limit)
            let items = (start..<max(start, end)).map { index in
                "{\"id\":\(index == 3 ? Self.bigID : String(index + 1)),\"name\":\"thing \(index + 1)\"}"
            }
            return .json("{\"results\":[\(items.joined(separator: ","))],\"total\":\(count)}")
        }
        port = Int(server.port)
    }

    func stop() { server.stop() }

    /// A JSON object of strings, escaped by Foundation.
    private static func object(_ members: [String: String]) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: members)) ?? Data("{}".utf8), as: UTF8.self)
    }

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
