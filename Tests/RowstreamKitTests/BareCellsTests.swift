import Foundation
import HTTPServer
@testable import RowstreamKit
import RowstreamTesting
import TestSupport
import Testing

/// Bare cells (`?cells=bare`, docs/PROTOCOL.md): a stream's `rows` open each data cell with `<td>` alone, everything
/// else as the classed rows say; the default, dialects, cards and the rest of the page stay classed; a bad value is a
/// clear 400.
@Suite("Bare cells on request")
struct BareCellsTests {
    /// The people table's classed openings, as the renderer writes them.
    static let classedOpenings = ["<td class=\"rs-c rs-text\">", "<td class=\"rs-c rs-date\">",
                                  "<td class=\"rs-c rs-link\">", "<td class=\"rs-c rs-badge\">",
                                  "<td class=\"rs-c rs-number\">"]

    /// `html` with every classed data-cell opening of the people table made bare.
    static func stripped(_ html: String) -> String {
        classedOpenings.reduce(html) { $0.replacingOccurrences(of: $1, with: "<td>") }
    }

    /// The first `rows` event's data of a new viewer of `target`.
    static func firstRows(_ server: RowstreamTestServer, _ target: String, named name: String = "rows")
        async throws -> String
    {
        let stream = try await server.client.stream(target)
        defer { stream.close() }
        return try await stream.next(named: name).event.data
    }

    @Test("bare rows are the classed rows without the cells' classes; the default and `classed` are classed")
    func bareIsClassedWithoutClasses() async throws {
        let server = try testServer([peopleTable(offsetSource(people(12)))])
        defer { server.shutdown() }
        let classed = try await Self.firstRows(server, "/tables/people/stream")
        let named = try await Self.firstRows(server, "/tables/people/stream?cells=classed")
        let bare = try await Self.firstRows(server, "/tables/people/stream?cells=bare")
        #expect(named == classed)
        #expect(classed.components(separatedBy: "<td class=\"rs-c rs-").count - 1 == 50, "10 rows of 5 cells")
        #expect(!bare.contains("<td "), "no cell opening carries an attribute")
        #expect(bare.components(separatedBy: "<td>").count - 1 == 50)
        #expect(bare == Self.stripped(classed))
        #expect(bare.count < classed.count * 3 / 4, "\(bare.count) of \(classed.count) bytes")
        // Escaping, keys and indexes are as in the classed rows.
        #expect(bare.contains("<tr data-key=\"p3\" data-index=\"2\"><td>&lt;b&gt;Bold&lt;/b&gt; &amp; co</td>"))
        // The page's skeleton keeps the classes the page script puts back.
        let page = await server.client.get("/tables/people").text
        #expect(page.contains("<td class=\"rs-c rs-number\"><span class=\"rs-bone\"></span></td>"))
    }

    @Test("classed and bare viewers at the same place each get their own shared body, not the other's")
    func formsShareNoBody() async throws {
        let server = try testServer([peopleTable(offsetSource(people(12)))])
        defer { server.shutdown() }
        var seen: [String] = []
        for target in ["", "?cells=bare", "", "?cells=bare", "?cells=classed"] {
            seen.append(try await Self.firstRows(server, "/tables/people/stream" + target))
        }
        #expect(seen[0] == seen[2] && seen[0] == seen[4])
        #expect(seen[1] == seen[3])
        #expect(seen[1] == Self.stripped(seen[0]) && seen[1] != seen[0])
    }

    @Test("the next batches of a bare stream are bare too, and resume exactly once")
    func laterBatchesAreBare() async throws {
        let server = try testServer([peopleTable(offsetSource(people(25)))])
        defer { server.shutdown() }
        let stream = try await server.client.stream("/tables/people/stream?cells=bare")
        defer { stream.close() }
        let session = try object(try await stream.next(named: "session").event.data)
        let first = try await stream.next(named: "rows").event
        #expect(!first.data.contains("<td "))
        let next = try #require(session["next"] as? String)
        #expect(await server.client.post(next).status == .accepted)
        let second = try await stream.next(named: "rows").event.data
        #expect(rowKeys(second) == (11...20).map { "p\($0)" })
        #expect(!second.contains("<td ") && second.contains("<td>"))
    }

    @Test("a bad value is a 400 that names the forms, and opens no stream", arguments: ["plain", "", "BARE"])
    func badValue(value: String) async throws {
        let server = try testServer([peopleTable(offsetSource(people(3)))])
        defer { server.shutdown() }
        let answer = await server.client.get("/tables/people/stream?cells=\(value)")
        #expect(answer.status == .badRequest)
        #expect(answer.stream == nil)
        #expect(answer.text.contains("cells must be classed or bare"))
    }

    @Test("cards and dialects stay classed when bare cells are asked for")
    func cardsAndDialectsStayClassed() async throws {
        let server = try testServer([peopleCards(), peopleTable(offsetSource(people(12)))])
        defer { server.shutdown() }
        let card = try await Self.firstRows(server, "/tables/cards/stream?cells=bare")
        #expect(card.contains("<td class=\"rs-c rs-badge\" data-label=\"Status\">"))
        // A card's cells are classed whatever the viewer asks: the viewers of both kinds get the same rows.
        for target in ["", "?cells=classed"] {
            #expect(try await Self.firstRows(server, "/tables/cards/stream" + target) == card)
        }
        let htmx = try await Self.firstRows(server, "/tables/people/stream?dialect=htmx&cells=bare")
        #expect(htmx.contains("<td class=\"rs-c rs-number\">"))
    }

    @Test("a card table has one cell form: its viewers of both kinds share one form's kept batches")
    func cardTablesHaveOneForm() {
        let cards = peopleCards(), table = peopleTable(offsetSource(people(3)))
        #expect(cards.cellForm(.bare) == .classed && cards.cellForm(.classed) == .classed)
        #expect(cards.sharedBatches(.bare) === cards.sharedBatches(.classed), "one rendering kept, not one per form")
        #expect(table.cellForm(.bare) == .bare && table.cellForm(.classed) == .classed)
        #expect(table.sharedBatches(.bare) !== table.sharedBatches(.classed))
    }

    @Test("a page's stream takes the same parameter for every table on it")
    func pageStream() async throws {
        let server = try RowstreamTestServer(
            [peopleTable(offsetSource(people(25)), name: "big"), peopleTable(offsetSource(people(5)), name: "small")],
            pages: [DashboardPage(name: "both", title: "Both", tables: ["big", "small"])]
        )
        defer { server.shutdown() }
        let classed = try await Self.firstRows(server, "/pages/both/stream", named: "small:rows")
        let bare = try await Self.firstRows(server, "/pages/both/stream?cells=bare", named: "small:rows")
        #expect(bare == Self.stripped(classed) && bare != classed)
        #expect(await server.client.get("/pages/both/stream?cells=none").status == .badRequest)
    }
}
