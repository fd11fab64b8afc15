import JSON
import Testing
@testable import Tables

/// Charts of numbers at the ends of Double's range (ChartFormatting.swift): no Double-to-Int conversion traps (one
/// upstream item must never stop the server), and the drawing is still to scale. Differences wider than Double
/// (`1.7e308 - -1.7e308`) are taken of halves.
@Suite struct ChartExtremeValueTests {
    static let most = Double.greatestFiniteMagnitude

    static func line(_ cell: String) -> String? {
        cell.components(separatedBy: "points=\"").dropFirst().first.map { String($0.prefix { $0 != "\"" }) }
    }

    static func rect(_ cell: String) -> String? {
        cell.components(separatedBy: "<rect class=\"rs-fill\" ").dropFirst().first.map { String($0.prefix { $0 != "/" }) }
    }

    @Test func aSparklineSpanningMoreThanDoubleIsDrawnToScale() {
        let cells = ChartRenderingTests.cells(.sparkline, [[.double(Self.most), .double(-Self.most)], [.double(Self.most)],
                                                           [.double(-Self.most), 0, .double(Self.most)],
                                                           [.double(Self.most), .double(Self.most / 2)]])
        #expect(cells.map(Self.line) == ["0,1 100,19", "0,10 100,10", "0,19 50,10 100,1", "0,1 100,19"])
    }

    @Test func barsOfHugeValuesAreDrawnWithAndWithoutARange() {
        // The batch's own range, -1.8e308...1.8e308: zero in the middle.
        let own = ChartRenderingTests.cells(.bar, [.double(Self.most), .double(-Self.most), 0])
        #expect(own.map(Self.rect) == ["x=\"50\" width=\"50\" height=\"20\"", "width=\"50\" height=\"20\"",
                                       "x=\"50\" width=\"0\" height=\"20\""])
        // A configured range as wide as Double, and a small one the values overflow.
        let wide = ChartRenderingTests.cells(.bar, [.double(Self.most), .double(-Self.most / 2)], range: -Self.most...Self.most)
        #expect(wide.map(Self.rect) == ["x=\"50\" width=\"50\" height=\"20\"", "x=\"25\" width=\"25\" height=\"20\""])
        let small = ChartRenderingTests.cells(.bar, [.double(Self.most), .double(-Self.most), .double(1e300)], range: 0...1e-300)
        #expect(small.map(Self.rect) == ["width=\"100\" height=\"20\"", "width=\"0\" height=\"20\"", "width=\"100\" height=\"20\""])
    }

    @Test func aProgressWhosePercentageIsBeyondDoubleIsABadValueNotInfinity() {
        let cells = ChartRenderingTests.cells(.progress, [.double(1e307), .double(-Self.most), .double(1e300)])
        #expect(cells[0] == "<span class=\"rs-bad\" title=\"1e+307\"></span>")
        #expect(cells[1].hasPrefix("<span class=\"rs-bad\" title="))
        #expect(cells[2].hasPrefix("<span class=\"rs-v\">") && cells[2].hasSuffix("width=\"100\" height=\"20\"/></svg>"))
        #expect(!cells.joined().contains("inf"))
    }

    @Test func theScaleNeverTraps() {
        for (part, whole) in [(Double.nan, 1.0), (1, .nan), (.infinity, 1), (-.infinity, 1), (1, .infinity), (1, 0), (1, -1),
                              (Self.most, .leastNonzeroMagnitude)] {
            let x = ChartFormatting.scaled(part, of: whole, on: 100)
            #expect((0...100).contains(x))
        }
        #expect(ChartFormatting.scaled(.infinity, of: 1, on: 100) == 100)
        #expect(ChartFormatting.position(Self.most, in: -Self.most...Self.most) == 100)
    }
}
