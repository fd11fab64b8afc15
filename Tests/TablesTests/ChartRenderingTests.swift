import JSON
import Testing
@testable import Tables

/// The chart formats (bar, sparkline, progress; ChartFormatting.swift): inline SVG with attributes only, the value as
/// text beside or after it, ranges (configured, or the batch's own), bad values as an empty span titled with the raw
/// value, escaped, and skeleton cells of the same shape.
@Suite struct ChartRenderingTests {
    static let svg = "<svg class=\"rs-chart\" viewBox=\"0 0 100 20\" preserveAspectRatio=\"none\" aria-hidden=\"true\">"

    static func bar(x: Int = 0, width: Int) -> String {
        svg + "<rect class=\"rs-fill\" \(x > 0 ? "x=\"\(x)\" " : "")width=\"\(width)\" height=\"20\"/></svg>"
    }

    /// The cells of `values` (one row each, rendered as one batch) in a one-column table of `format`.
    static func cells(_ format: ColumnFormat, _ values: [JSONValue], range: ClosedRange<Double>? = nil,
                      decimals: Int? = nil) -> [String] {
        let column = Column(title: "V", field: Support.path("v"), format: format, decimals: decimals, range: range)
        let renderer = TableRenderer(spec: TableSpec(name: "t", title: "T", columns: [column], keyField: nil))
        let html = Support.text(renderer.renderRows(values.map { .object(["v": $0]) }, startIndex: 0))
        let open = "<td class=\"rs-c rs-\(format.className)\">"
        return html.components(separatedBy: "</td></tr>").dropLast().map { row in
            row.range(of: open).map { String(row[$0.upperBound...]) } ?? "<<no cell: \(row)>>"
        }
    }

    @Test func aBarIsItsGroupedValueAndARectAgainstTheConfiguredRange() {
        #expect(Self.cells(.bar, [50, 1234.5, 500, -5], range: 0...2_000, decimals: 2) == [
            "<span class=\"rs-v\">50.00</span>" + Self.bar(width: 3),
            "<span class=\"rs-v\">1,234.50</span>" + Self.bar(width: 62),
            "<span class=\"rs-v\">500.00</span>" + Self.bar(width: 25),
            "<span class=\"rs-v\">-5.00</span>" + Self.bar(width: 0),   // below the range: clamped, empty
        ])
        #expect(Self.cells(.bar, [9_000], range: 0...2_000) == ["<span class=\"rs-v\">9,000</span>" + Self.bar(width: 100)])
        #expect(Self.cells(.bar, ["12.5"], range: 0...100) == ["<span class=\"rs-v\">12.5</span>" + Self.bar(width: 13)],
                "a number in a string is a number")
    }

    @Test func withoutARangeEachBatchScalesToItsOwnValuesAndZero() {
        #expect(Self.cells(.bar, [10, 40, .null]) == [
            "<span class=\"rs-v\">10</span>" + Self.bar(width: 25), "<span class=\"rs-v\">40</span>" + Self.bar(width: 100), "",
        ])
        // Across zero: bars start at zero's place and grow either way.
        #expect(Self.cells(.bar, [-50, 50, 0]) == [
            "<span class=\"rs-v\">-50</span>" + Self.bar(x: 0, width: 50),
            "<span class=\"rs-v\">50</span>" + Self.bar(x: 50, width: 50),
            "<span class=\"rs-v\">0</span>" + Self.bar(x: 50, width: 0),
        ])
        #expect(Self.cells(.bar, [0, 0]) == Array(repeating: "<span class=\"rs-v\">0</span>" + Self.bar(width: 0), count: 2))
        // A row rendered alone (a live update) is its own batch.
        let column = Column(title: "V", field: Support.path("v"), format: .bar)
        let renderer = TableRenderer(spec: TableSpec(name: "t", title: "T", columns: [column], keyField: nil))
        var out: [UInt8] = []
        renderer.appendRow(Row(cells: [.integer(7)]), index: nil, to: &out)
        #expect(Support.text(out).contains(Self.bar(width: 100)))
    }

    @Test func progressIsItsPercentageAndARect() {
        func progress(_ text: String, _ width: Int) -> String {
            "<span class=\"rs-v\">\(text)%</span>" + Self.svg
                + "<rect class=\"rs-fill\" width=\"\(width)\" height=\"20\"/></svg>"
        }
        #expect(Self.cells(.progress, [0.425, 0, 1, 1.5, -0.2, .null]) == [
            progress("43", 43), progress("0", 0), progress("100", 100), progress("150", 100), progress("-20", 0), "",
        ])
        #expect(Self.cells(.progress, [0.4256], decimals: 1) == [progress("42.6", 43)])
    }

    @Test func aSparklineIsOnePolylineWithIntegerPointsAndItsNumbersAsHiddenText() {
        func line(_ points: String, _ text: String) -> String {
            Self.svg + "<polyline class=\"rs-line\" points=\"\(points)\"/></svg><span class=\"rs-visually-hidden\">\(text)</span>"
        }
        #expect(Self.cells(.sparkline, [[3, 5, 8, 12], [7], [2, 2.0], [0.5, -1.25], [], .null]) == [
            line("0,19 33,15 66,9 100,1", "3, 5, 8, 12"),
            line("0,10 100,10", "7"),                  // one point: a level line
            line("0,10 100,10", "2, 2"),               // flat
            line("0,1 100,19", "0.5, -1.25"),
            "", "",                                   // empty array, null: empty cells
        ])
        let long = JSONValue.array((1...100).map { .int(Int64($0)) })
        let drawn = Self.cells(.sparkline, [long])[0]
        #expect(Support.count(of: ",", in: drawn.components(separatedBy: "points=\"")[1].prefix { $0 != "\"" }.description)
                == ChartFormatting.maximumPoints, "the last 60 points only")
        #expect(drawn.hasSuffix(">41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100</span>"))
    }

    @Test func badValuesAreAnEmptySpanTitledWithTheRawValueEscaped() {
        func bad(_ title: String) -> String { "<span class=\"rs-bad\" title=\"\(title)\"></span>" }
        #expect(Self.cells(.bar, ["abc", "<script>\"'&", true, "nan", "inf", ["x": 1]]) == [
            bad("abc"), bad("&lt;script&gt;&quot;&#39;&amp;"), bad("true"), bad("nan"), bad("inf"), bad("{&quot;x&quot;:1}"),
        ])
        #expect(Self.cells(.progress, ["half", [0.5]]) == [bad("half"), bad("[0.5]")])
        #expect(Self.cells(.sparkline, [[1, "<x>"], 5, "1,2,3", [[1]], [true]]) == [
            bad("[1,&quot;&lt;x&gt;&quot;]"), bad("5"), bad("1,2,3"), bad("[[1]]"), bad("[true]"),
        ])
        // From the library: not finite.
        let column = Column("V", format: .bar)
        var out: [UInt8] = []
        TableRenderer(spec: TableSpec(name: "t", title: "T", columns: [column, Column("S", format: .sparkline)], keyField: nil))
            .appendRow(Row(cells: [.decimal(.nan), .text("1,nan")]), index: 0, to: &out)
        #expect(Support.text(out).contains("<td class=\"rs-c rs-barchart\">" + bad("nan") + "</td><td class=\"rs-c rs-sparkline\">" + bad("1,nan")))
    }

    @Test func noStyleAttributeOrElementAndEveryChartIsHiddenBehindItsText() {
        let html = Self.cells(.bar, [1, 2]).joined() + Self.cells(.progress, [0.5]).joined()
            + Self.cells(.sparkline, [[1, 2, 3]]).joined()
        #expect(!html.contains("style"))
        #expect(Support.count(of: "<svg ", in: html) == 4 && Support.count(of: "aria-hidden=\"true\"", in: html) == 4)
    }

    @Test func skeletonCellsHaveTheChartsShape() {
        let spec = TableSpec(name: "t", title: "T", columns: [Column("B", format: .bar), Column("S", format: .sparkline),
                                                              Column("P", format: .progress), Column("N", format: .number)],
                             keyField: nil)
        #expect(Support.text(TableRenderer(spec: spec).skeletonRow()) == "<tr class=\"rs-skeleton\" aria-hidden=\"true\">"
            + "<td class=\"rs-c rs-barchart\"><span class=\"rs-bone rs-bone-v\"></span><span class=\"rs-bone rs-bone-chart\"></span></td>"
            + "<td class=\"rs-c rs-sparkline\"><span class=\"rs-bone rs-bone-chart\"></span></td>"
            + "<td class=\"rs-c rs-progress\"><span class=\"rs-bone rs-bone-v\"></span><span class=\"rs-bone rs-bone-chart\"></span></td>"
            + "<td class=\"rs-c rs-number\"><span class=\"rs-bone\"></span></td></tr>")
    }

    @Test func aSeriesIsMadeOnlyOfFiniteNumbersAndExportsAsItsArray() throws {
        #expect(Cell(series: [1, 2.5, .bigInteger("3")]) == .series([1, 2.5, 3]))
        #expect(Cell(series: []) == .empty && Cell(series: nil) == .empty)
        #expect(Cell(series: [1, "2"]) == .text("[1,\"2\"]"))
        #expect(Cell(series: 4) == .integer(4))
        let spec = TableSpec(name: "t", title: "T", columns: [Column("S", format: .sparkline)], keyField: nil)
        var csv: [UInt8] = [], ndjson: [UInt8] = []
        ExportEncoder(spec: spec, format: .csv).append(Row(cells: [.series([3, 5.5, -1])]), to: &csv)
        ExportEncoder(spec: spec, format: .ndjson).append(Row(cells: [.series([3, 5.5, -1])]), to: &ndjson)
        #expect(Support.text(csv) == "\"[3,5.5,-1]\"\r\n")
        #expect(Support.text(ndjson) == "{\"S\":[3,5.5,-1]}\n")
        // A sparkline column of a config table reads the array as a series, in both of the RowMaker's ways.
        let column = Column(title: "S", field: Support.path("s"), format: .sparkline)
        let maker = RowMaker(spec: TableSpec(name: "t", title: "T", columns: [column], keyField: nil))
        let bytes = Array(#"{"s": [1, 2, 3.5]}"#.utf8)
        #expect(maker.row(["s": [1, 2, 3.5]]).cells == [.series([1, 2, 3.5])])
        #expect(try bytes.withUnsafeBufferPointer { try maker.row(json: $0) }.cells == [.series([1, 2, 3.5])])
    }

    @Test func aColumnIgnoresARangeThatIsNotOne() {
        #expect(Column(title: "B", field: nil, format: .bar, range: 5...5).range == nil)
        #expect(Column(title: "B", field: nil, format: .bar, range: 0...Double.infinity).range == nil)
        #expect(Column(title: "B", field: nil, format: .bar, range: -1...1).range == -1...1)
    }
}
