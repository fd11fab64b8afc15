import Dashboard
import Foundation
import TestSupport
import Testing

/// The top-level `pages` of a config file.
@Suite struct PageConfigTests {
    static func config(pages: String) -> String {
        """
        {"tables": [
          {"name": "items", "request": {"url": "https://api.example.com/v1/items"}, "items": "data",
           "columns": [{"title": "ID", "path": "id"}], "pagination": {"style": "cursor", "cursorPath": "next"}},
          {"name": "more", "request": {"url": "https://api.example.com/v1/more"}, "items": "data",
           "columns": [{"title": "ID", "path": "id"}], "pagination": {"style": "cursor", "cursorPath": "next"}}],
         "pages": \(pages)}
        """
    }

    @Test func aPageOfTwoTables() throws {
        let config = try ConfigFileTests.parse(Self.config(pages: #"[{"name": "both", "title": "Both", "tables": ["more", "items"]}]"#))
        #expect(config.pages.map(\.name) == ["both"])
        #expect(config.pages.first?.title == "Both")
        #expect(config.pages.first?.tables == ["more", "items"])
        #expect(try ConfigFileTests.parse(ConfigFileTests.table()).pages.isEmpty)
    }

    @Test(arguments: [
        (#"[{"name": "p", "tables": ["items", "nope"]}]"#, "test.json: pages[0].tables[1]: the name of a table in this file"),
        (#"[{"name": "p", "tables": ["items", "items"]}]"#, "test.json: pages[0].tables[1]: a table not already on this page"),
        (#"[{"name": "p", "tables": []}]"#, "test.json: pages[0].tables: an array of 1 to 8"),
        (#"[{"name": "P q", "tables": ["items"]}]"#, "test.json: pages[0].name: 1 to 64 of a-z"),
        (#"[{"name": "p", "tables": ["items"]}, {"name": "p", "tables": ["more"]}]"#, "test.json: pages[1].name: 1 to 64"),
        (#"[{"name": "p", "tables": ["items"], "layout": "tabs"}]"#, "test.json: pages[0].layout: unknown key"),
        (#"[{"name": "p", "tables": [7]}]"#, "test.json: pages[0].tables[0]: the name of a table"),
        (#"{"name": "p"}"#, "test.json: pages: an array"),
    ])
    func invalidPages(pages: String, prefix: String) {
        let error = #expect(throws: ConfigError.self) { try ConfigFileTests.parse(Self.config(pages: pages)) }
        #expect(error?.description.hasPrefix(prefix) == true, "\(error?.description ?? "no error")")
    }

    @Test func aConfigPageServesItsTablesOnOneStream() async throws {
        try await withConfigDashboard(count: 12, secret: "page-secret", token: "page-secret", edit: { text in
            String(text[..<text.lastIndex(of: "}")!]) + #", "pages": [{"name": "both", "title": "Both", "tables": ["others", "things"]}]}"#
        }) { dashboard, _ in
            let page = try await fetch(dashboard.port, "GET", "/pages/both")
            #expect(page.status == 200)
            #expect(page.body.contains("id=\"rs-pending--others\"") && page.body.contains("id=\"rs-pending--things\""))
            #expect(try await fetch(dashboard.port, "GET", "/tables/things").body.contains("href=\"/pages/both\""))
            let stream = try await SSEClient(port: dashboard.port, path: "/pages/both/stream")
            var keys: [String: [String]] = [:]
            for _ in 0..<50 where keys.count < 2 {
                guard let event = try await stream.next() else { break }
                if event.event.hasSuffix(":rows") { keys[String(event.event.dropLast(5)), default: []] += rowKeys(event.data) }
            }
            #expect(keys["things"] == ["1", "2", "3", ConfigFixtureUpstream.bigID, "5"])
            #expect(keys["others"]?.count == 5)
            #expect(!(try await fetch(dashboard.port, "GET", "/api/pages").body.contains("page-secret")))
        }
    }
}
