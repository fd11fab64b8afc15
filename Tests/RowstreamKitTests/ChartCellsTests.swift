import Testing
@testable import RowstreamKit
import Tables

/// The row template's chart cells (`row.bar`, `row.sparkline`, `row.progress`; docs/LIBRARY.md): the typed cells they
/// fill, and how a table of such columns renders them.
@Suite struct ChartCellsTests {
    struct Customer {
        var mrr: Double
        var trend: [Double]
        var onboarded: Double
    }

    static let columns = [TableColumn("MRR", format: .bar), TableColumn("Trend", format: .sparkline),
                          TableColumn("Onboarded", format: .progress)]

    static func row(_ customer: Customer) -> Row {
        RowCells.fill(customer) { customer, row in
            row.bar(customer.mrr)
            row.sparkline(customer.trend)
            row.progress(customer.onboarded)
        }
    }

    @Test func theCellsAreTypedValues() {
        #expect(Self.row(Customer(mrr: 1_234.5, trend: [3, 5, 8], onboarded: 0.42)).cells
                == [.decimal(1_234.5), .series([3, 5, 8]), .decimal(0.42)])
        #expect(Self.row(Customer(mrr: 1, trend: [], onboarded: 1)).cells[1] == .empty)
        #expect(Self.row(Customer(mrr: 1, trend: [1, .infinity], onboarded: 1)).cells[1] == .text("1.0,inf"),
                "not finite: a bad value, shown empty with its text as title")
    }

    @Test func aTableOfThemDrawsEachWithItsValueAsText() {
        var mrr = Self.columns[0]
        mrr.range = 0...10_000
        let renderer = TableRenderer(spec: TableSpec(name: "c", title: "C", columns: [mrr] + Self.columns.dropFirst(),
                                                     keyField: nil))
        let html = String(decoding: renderer.renderRows([Self.row(Customer(mrr: 2_500, trend: [1, 2], onboarded: 0.5))],
                                                         startIndex: 0), as: UTF8.self)
        #expect(html.contains("<td class=\"rs-c rs-barchart\"><span class=\"rs-v\">2,500</span><svg "))
        #expect(html.contains("<rect class=\"rs-fill\" width=\"25\" height=\"20\"/>"))
        #expect(html.contains("points=\"0,19 100,1\"/></svg><span class=\"rs-visually-hidden\">1, 2</span>"))
        #expect(html.contains("<span class=\"rs-v\">50%</span>"))
    }
}
