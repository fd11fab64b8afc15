import Dashboard
import Foundation
import JSON
import TestSupport

/// The upstream of the config tests, on TestSupport's fixture server: `GET /v1/things?offset=&limit=` over `count`
/// items with offset drift (each page repeats the previous page's last item) and one id too large for Int64.
/// Items have fields no column shows (`email`, `owner.phone`). It answers 403 unless `Authorization: Bearer <token>`.
/// `/v1/echo` and `/v1/echo-all` echo the credentials they got in an HTTP-200 error. Call `stop()` at the end.
struct ConfigFixtureUpstream {
    let server: FixtureServer
    var port: Int { Int(server.port) }
    static let bigID = "12345678901234567890123"

    init(count: Int, token: String) throws {
        server = try FixtureServer { request in Self.answer(request, count: count, token: token) }
    }

    func stop() { server.stop() }

    private static func answer(_ request: FixtureRequest, count: Int, token: String) -> FixtureReply {
        let auth = request.header("Authorization") ?? ""
        if request.path == "/v1/echo" {  // an API that echoes the credentials it got in an HTTP-200 error
            return .json(JSONValue.object(["error": .string("token not valid: \(auth)")]).serialized())
        }
        if request.path == "/v1/echo-all" {  // echoes its request URL and headers, as sent and re-encoded
            // Compact, so that every form is within the 200 characters shown once redacted.
            let forms = [request.target, lowercasedEscapes(request.target), auth, Data(auth.utf8).base64EncodedString(),
                         formEncoded(auth), String(decoding: JSONValue.string(auth).serialized(), as: UTF8.self)]
            let text = "no access for GET " + forms.joined(separator: " | ")
            return .json(JSONValue.object(["error": .string(text)]).serialized())
        }
        guard request.header("Authorization") == "Bearer \(token)" else {
            return .json("{\"error\":\"unauthorized\"}", status: 403)
        }
        let offset = Int(request.query["offset"] ?? "0") ?? 0
        let limit = Int(request.query["limit"] ?? "10") ?? 10
        // Offset drift: a page starts one item early, repeating the previous page's last item.
        let start = max(0, offset - 1)
        let end = min(count, start + limit)
        let items: [JSONValue] = start < end ? (start..<end).map { index in
            let id: JSONValue = index == 3 ? .bigInteger(bigID) : .int(Int64(index + 1))
            // `email` and `owner.phone` are no column: the JSON proxy shows them only with `"items": "raw"`.
            return ["id": id, "name": .string("thing \(index + 1)"), "email": .string("owner\(index + 1)@example.com"),
                    "owner": ["phone": "555-0100", "name": .string("owner \(index + 1)")]]
        } : []
        let body: JSONValue = ["results": .array(items), "total": .int(Int64(count))]
        return .json(body.serialized())
    }

    /// `text` with the hex digits of its `%XX` escapes in lower case (`%2B` -> `%2b`), as some servers echo a URL.
    static func lowercasedEscapes(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let percent = rest.firstIndex(of: "%") {
            out += rest[..<percent]
            let escape = rest[percent...].prefix(3)
            out += escape.lowercased()
            rest = rest[escape.endIndex...]
        }
        return out + rest
    }

    /// `text` as a form value: `+` for a space, `%XX` for everything but letters and digits.
    static func formEncoded(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: false)
            .map { $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "" }.joined(separator: "+")
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
