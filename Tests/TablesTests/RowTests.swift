import JSON
import Testing
@testable import Tables

/// Typed rows: a `Row` built by hand renders exactly as the same values made by a config table's `RowMaker` from
/// an item, in every format; cells past the columns are ignored and missing ones are empty.
@Suite struct RowTests {
    static let columns = ColumnFormat.allCases.map { Column($0.rawValue, format: $0) }

    @Test("a typed row renders as the item its RowMaker made it from", arguments: [
        (JSONValue.string("https://a.test/?q=<1>"), Cell.text("https://a.test/?q=<1>")),
        (.int(1_700_000_000), .integer(1_700_000_000)),
        (.double(-12345.678), .decimal(-12345.678)),
        (.bigInteger("123456789012345678901234"), .bigInteger("123456789012345678901234")),
        (.bool(true), .text("true")),
        (JSONValue.object(["a": .string("<b>")]), .text("{\"a\":\"<b>\"}")),
        (.string("2024-02-29T23:59:59+01:00"), .text("2024-02-29T23:59:59+01:00")),
        (.null, .empty),
    ])
    func typedRowEqualsMadeRow(value: JSONValue, cell: Cell) {
        var spec = TableSpec(name: "t", title: "T", columns: Self.columns.enumerated().map { index, column in
            var column = column
            column.field = Support.path("v")
            if column.format == .link { column.labelField = Support.path("label") }
            return column
        }, keyField: Support.path("id"))
        let made = RowMaker(spec: spec).row(["id": "k<1>", "v": value, "label": "go"])
        #expect(made.key == "k<1>")
        let cells = Self.columns.map { $0.format == .link && cell != .empty ? Cell.link(cell.displayText ?? "", label: "go") : cell }
        #expect(made.cells == cells)
        let renderer = TableRenderer(spec: spec)
        #expect(renderer.renderRows([made], startIndex: 0)
            == renderer.renderRows([Row(key: "k<1>", cells: cells)], startIndex: 0))
        spec.keyField = nil
        #expect(RowMaker(spec: spec).row(["id": "k"]).key == nil, "no key path: the row keeps no key")
    }

    @Test func cellsPastTheColumnsAreIgnoredAndMissingOnesAreEmpty() {
        let renderer = TableRenderer(spec: TableSpec(name: "t", title: "T", columns: [Column("A"), Column("B")],
                                                     keyField: nil))
        let long = Support.text(renderer.renderRows([Row(cells: [.text("a"), .text("b"), .text("c")])], startIndex: 4))
        #expect(long == "<tr data-key=\"4\" data-index=\"4\"><td class=\"rs-c rs-text\">a</td><td class=\"rs-c rs-text\">b</td></tr>")
        let short = Support.text(renderer.renderRows([Row(key: "x", cells: [.integer(-5)])], startIndex: 0))
        #expect(short == "<tr data-key=\"x\" data-index=\"0\"><td class=\"rs-c rs-text\">-5</td><td class=\"rs-c rs-text\"></td></tr>")
    }

    @Test func aCodeColumnIsListedByItsPlaceInTheRow() {
        let renderer = TableRenderer(spec: TableSpec(name: "t", title: "T", columns: [Column("A"),
            Column(title: "B", field: Support.path("b.c"))], keyField: nil))
        #expect(renderer.columnsJSON().arrayValue?.map { $0["field"]?.stringValue } == ["c0", "b.c"])
    }
}
