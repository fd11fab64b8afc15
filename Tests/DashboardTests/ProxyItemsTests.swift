import Foundation
import TestSupport
import Testing

/// The JSON proxy shows each upstream item's configured columns (and key) only, unless the table opts in to
/// raw items (docs/CONFIG.md, `proxy`).
@Suite("JSON proxy items")
struct ProxyItemsTests {
    static let secret = "fixture-secret-4711"

    private func firstItems(_ port: Int, table: String) async throws -> [[String: Any]] {
        let page = try await fetch(port, "GET", "/api/tables/\(table)/pages")
        #expect(page.status == 200, "\(page.body)")
        return try #require(try jsonObject(page.body)["items"] as? [[String: Any]])
    }

    @Test("by default an item holds only the table's columns and key, not the upstream's other fields")
    func columnsOnlyByDefault() async throws {
        // `others` shows only `name` (key: the default `id`); `things` shows `id` and `name`; with a label column
        // reading `owner.name`, that one field of `owner` is kept (not its `phone`).
        let label: (String) -> String = {
            $0.replacingOccurrences(of: #"{"title": "Name", "path": "name"}"#,
                                    with: #"{"title": "Name", "path": "name", "format": "link", "label": "owner.name"}"#)
        }
        try await withConfigDashboard(secret: Self.secret, token: Self.secret, edit: label) { dashboard, _ in
            let others = try await firstItems(dashboard.port, table: "others")
            #expect(others.count == 5)
            #expect(others.allSatisfy { Set($0.keys) == ["id", "name"] }, "\(others)")
            let things = try await firstItems(dashboard.port, table: "things")
            #expect(things.first?["name"] as? String == "thing 1")
            #expect(things.allSatisfy { Set($0.keys) == ["id", "name", "owner"] }, "\(things)")
            #expect(things.allSatisfy { ($0["owner"] as? [String: Any]).map { Set($0.keys) } == ["name"] })
            let body = try await fetch(dashboard.port, "GET", "/api/tables/things/pages").body
            #expect(!body.contains("example.com") && !body.contains("555-0100"))
        }
    }

    @Test("\"proxy\": {\"items\": \"raw\"} passes whole items; \"enabled\": false removes the proxy")
    func rawAndOff() async throws {
        let edit: (String) -> String = {
            $0.replacingOccurrences(of: #""cache": {"#, with: #""proxy": {"items": "raw"}, "cache": {"#)
                .replacingOccurrences(of: #""items": "results", "columns": [{"path": "name"}],"#,
                                      with: #""items": "results", "columns": [{"path": "name"}], "proxy": {"enabled": false},"#)
        }
        try await withConfigDashboard(secret: Self.secret, token: Self.secret, edit: edit) { dashboard, _ in
            let things = try await firstItems(dashboard.port, table: "things")
            #expect(things.first?["email"] as? String == "owner1@example.com")
            #expect(things.allSatisfy { Set($0.keys) == ["id", "name", "email", "owner"] })
            let others = try await fetch(dashboard.port, "GET", "/api/tables/others/pages")
            #expect(others.status == 404)
            let list = try await fetch(dashboard.port, "GET", "/api/tables")
            #expect(list.body.contains("/api/tables/things/pages") && !list.body.contains("/api/tables/others/pages"))
        }
    }
}
