import Foundation
import RowstreamKit
import RowstreamTesting
import TestSupport
import Testing

/// A code-defined table with sections, in-process.
@Suite("Sections in code-defined tables")
struct SectionTests {
    struct Sale: Sendable { let id: Int; let city: String; let total: Double }

    static func sales() -> [Sale] {
        ["Lisbon", "Lisbon", "Lisbon", "Oslo", "Oslo", "Porto"].enumerated().map { Sale(id: $0 + 1, city: $1, total: Double($0) + 0.5) }
    }

    static func table() -> TableBinding {
        TableBinding(name: "sales", title: "Sales", columns: [TableColumn("City"), TableColumn("Total", format: .number)],
                     batchSize: 2, sections: TableSections(footer: .sum, footerLabel: "Sum"),
                     source: .array(sales(), batchSize: 2)) { sale, row in
            row.key = "s\(sale.id)"
            row.section = sale.city
            row.sectionValue = sale.total
            row.text(sale.city)
            row.number(sale.total)
        }
    }

    @Test("session and listing describe the sections; every batch starts with its section's header; the page's skeletons start with one")
    func stream() async throws {
        let server = try testServer([Self.table()])
        defer { server.shutdown() }
        let stream = try await server.client.stream("/tables/sales/stream")
        defer { stream.close() }
        let session = try object(try await stream.next(named: "session").event.data)
        let sections = try #require(session["sections"] as? [String: Any])
        #expect(sections["footer"] as? String == "sum")
        #expect(sections["label"] as? String == "Sum")
        let next = try #require(session["next"] as? String)
        var heads: [String] = []
        var keys: [String] = []
        for batch in 0..<3 {
            let data = try await stream.next(named: "rows").event.data
            heads += data.components(separatedBy: "class=\"rs-section-head\" data-section=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
            keys += rowKeys(data).filter { $0.hasPrefix("s") }
            if batch == 0 { #expect(data.contains("data-section=\"Lisbon\" data-value=\"1.5\"")) }
            if batch < 2 { #expect(await server.client.post(next).status == .accepted) }
        }
        #expect(keys == (1...6).map { "s\($0)" })
        // Batches: [L L] [L O] [O P]: each fragment opens with the section it starts in.
        #expect(heads == ["Lisbon", "Lisbon", "Oslo", "Oslo", "Porto"])

        let page = await server.client.get("/tables/sales").text
        #expect(page.contains("data-sections=\"sum\""))
        #expect(page.contains("<tbody id=\"rs-pending\"><tr class=\"rs-skeleton rs-section-head\""))
        let list = try object(await server.client.get("/api/tables").text)
        let first = try #require((list["tables"] as? [[String: Any]])?.first)
        #expect((first["sections"] as? [String: Any])?["footer"] as? String == "sum")
    }
}
