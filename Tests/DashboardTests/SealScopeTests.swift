import Foundation
import Sealing
import TestSupport
import Testing

/// Proxy cursors and resume-token cursors are sealed with distinct scopes (`proxy:NAME`, `resume:NAME`): a
/// cursor handed out on one route is refused on the other (docs/HARDENING.md, "Cursor scopes").
@Suite("Seal scopes")
struct SealScopeTests {
    static let secret = "fixture-secret-4711"

    /// The JSON object inside a resume token (`v1.` + base64url JSON), and the token rebuilt from one.
    private func tokenObject(_ token: String) throws -> [String: Any] {
        let dot = try #require(token.firstIndex(of: "."))
        let bytes = try #require(Base64URL.decode(token[token.index(after: dot)...]))
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    private func token(_ prefix: Substring, _ object: [String: Any]) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return prefix + "." + Base64URL.encode([UInt8](data))
    }

    @Test("a cursor from a rows event id is refused by the JSON proxy")
    func resumeCursorRefusedByProxy() async throws {
        try await withConfigDashboard(secret: Self.secret, token: Self.secret) { dashboard, _ in
            let stream = try await SSEClient(port: dashboard.port, path: "/tables/things/stream")
            let rows = try await stream.next(named: "rows").event
            let id = try #require(rows.id)
            let cursor = try #require(try tokenObject(id)["c"] as? String)
            let proxied = try await fetch(dashboard.port, "GET", "/api/tables/things/pages?cursor=\(queryEncoded(cursor))")
            #expect(proxied.status == 400, "\(proxied.status) \(proxied.body)")
        }
    }

    @Test("a JSON proxy cursor put into a resume token starts the viewer over")
    func proxyCursorRefusedByStream() async throws {
        try await withConfigDashboard(secret: Self.secret, token: Self.secret) { dashboard, _ in
            let page = try jsonObject(try await fetch(dashboard.port, "GET", "/api/tables/things/pages").body)
            let proxyCursor = try #require(page["next"] as? String)
            // A real resume token of the table, its cursor swapped for the proxy's.
            let first = try await SSEClient(port: dashboard.port, path: "/tables/things/stream")
            let id = try #require(try await first.next(named: "rows").event.id)
            var object = try tokenObject(id)
            object["c"] = proxyCursor
            let forged = try token(id.split(separator: ".")[0], object)

            let stream = try await SSEClient(port: dashboard.port, path: "/tables/things/stream", lastEventID: forged)
            let (rows, skipped) = try await stream.next(named: "rows")
            #expect(skipped.contains { $0.event == "reset" })
            #expect(rowKeys(rows.data).first == "1")
        }
    }
}
