import Dashboard
import Foundation
import TestSupport
import Testing

/// Both page templates (a table's page, index.html, and a page of tables, page.html) load the same scripts from one
/// list, filled in by the server: every script they name is served, and no placeholder is left in the HTML.
@Suite struct PageScriptsTests {
    @Test func bothPagesLoadTheSameServedScripts() async throws {
        let dashboard = try startDashboard(items: 20) { $0.page = true }
        defer { dashboard.shutdown() }
        var lists: [[String]] = []
        for path in ["/", "/pages/overview"] {
            let page = try await fetch(dashboard.port, "GET", path)
            #expect(page.status == 200)
            #expect(!page.body.contains("<!--rs:"), "a placeholder is left in \(path)")
            let scripts = page.body.components(separatedBy: "<script src=\"").dropFirst()
                .compactMap { $0.split(separator: "\"").first.map(String.init) }
            lists.append(scripts)
        }
        #expect(lists[0].count >= 5 && lists[0].last == "/app.js")
        #expect(lists[0] == lists[1])
        for script in lists[0] {
            #expect(try await fetch(dashboard.port, "GET", script).status == 200, "\(script) is not served")
        }
    }
}
