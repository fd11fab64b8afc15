import Foundation
import RowstreamKit
import RowstreamTesting
import TestSupport
import Testing

/// A code-defined grid table, in-process.
@Suite("Grid layout in code-defined tables")
struct GridTests {
    @Test("cards carry the template's title and image; the session and the page say grid; skeleton cards first")
    func cards() async throws {
        let server = try testServer([peopleCards()])
        defer { server.shutdown() }
        let stream = try await server.client.stream("/tables/cards/stream")
        defer { stream.close() }
        #expect(try object(try await stream.next(named: "session").event.data)["layout"] as? String == "grid")
        let rows = try await stream.next(named: "rows").event.data
        #expect(rowKeys(rows) == ["p1", "p2", "p3"])
        #expect(rows.contains("<img src=\"https://example.com/1.png\""))
        #expect(rows.contains("<td class=\"rs-card-title\">&lt;b&gt;Bold&lt;/b&gt; &amp; co</td>"))
        #expect(rows.contains("<span class=\"rs-monogram\" aria-hidden=\"true\">P2</span>"))
        #expect(rows.contains("data-label=\"Status\""))
        let page = await server.client.get("/tables/cards").text
        #expect(page.contains("data-layout=\"grid\""))
        #expect(page.contains("<tbody id=\"rs-pending\"><tr class=\"rs-skeleton rs-card\""))
    }
}
