import Foundation
import JSON
import Testing
@testable import Tables

/// The export file formats (docs/PROTOCOL.md "Export"): RFC 4180 quoting, spreadsheet formulas neutralized (OWASP
/// "CSV Injection"), NDJSON objects in column order, and the line that ends an incomplete file.
@Suite struct ExportEncoderTests {
    static let spec = TableSpec(name: "t", title: "T", columns: [
        Column("Name"), Column("Seats", format: .number), Column("Home", format: .link), Column("Name"),
    ], keyField: nil)

    static func csv(_ cells: [Cell]) -> String {
        var out: [UInt8] = []
        ExportEncoder(spec: spec, format: .csv).append(Row(cells: cells), to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test(arguments: [
        ("=1+2", "'=1+2"), ("+1", "'+1"), ("-1", "'-1"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"),
        ("\rx", "\"'\rx\""), ("=HYPERLINK(\"http://evil\",\"x\")", "\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\""),
        ("a=1", "a=1"), (" =1", " =1"), ("'=1", "'=1"),
    ])
    func formulaLikeTextIsNeutralized(value: String, field: String) {
        #expect(Self.csv([.text(value)]) == field + ",,,\r\n")
        #expect(Self.csv([.empty, .empty, .link(value, label: "x")]) == ",," + field + ",\r\n", "a link's URL is text")
    }

    @Test func numbersStayNumbers() {
        #expect(Self.csv([.empty, .integer(-5)]) == ",-5,,\r\n")
        #expect(Self.csv([.empty, .decimal(-1.5)]) == ",-1.5,,\r\n")
        #expect(Self.csv([.empty, .bigInteger("-12345678901234567890123")]) == ",-12345678901234567890123,,\r\n")
        #expect(Self.csv([.empty, .integer(1_234_567)]) == ",1234567,,\r\n", "no display grouping")
    }

    @Test(arguments: [
        ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""), ("two\nlines", "\"two\nlines\""),
        ("cr\r\nlf", "\"cr\r\nlf\""), ("Zoë 東京 🚀", "Zoë 東京 🚀"), ("", ""), ("plain", "plain"),
    ])
    func fieldsAreQuotedAsRFC4180Says(value: String, field: String) {
        #expect(Self.csv([.text(value)]) == field + ",,,\r\n")
    }

    @Test func theHeaderIsTheColumnTitlesAndCellsPastTheColumnsAreLeftOut() {
        let encoder = ExportEncoder(spec: Self.spec, format: .csv)
        #expect(String(decoding: encoder.header(), as: UTF8.self) == "Name,Seats,Home,Name\r\n")
        #expect(Self.csv([.text("a"), .integer(1), .link("https://x", label: "X"), .text("b"), .text("extra")])
                == "a,1,https://x,b\r\n")
        #expect(ExportEncoder(spec: Self.spec, format: .ndjson).header().isEmpty)
    }

    @Test func ndjsonIsOneObjectPerRowInColumnOrderWithUniqueNames() throws {
        var out: [UInt8] = []
        let encoder = ExportEncoder(spec: Self.spec, format: .ndjson)
        encoder.append(Row(cells: [.text("=x \"q\"\nz"), .bigInteger("12345678901234567890123"), .link("https://x", label: nil)]), to: &out)
        encoder.append(Row(cells: [.text("Zoë"), .decimal(.nan)]), to: &out)
        let text = String(decoding: out, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty, "one line per row, LF-terminated: \(text)")
        #expect(lines[0] == #"{"Name":"=x \"q\"\nz","Seats":12345678901234567890123,"Home":"https://x","Name 2":null}"#,
                "JSON is not a spreadsheet: values as they are")
        #expect(lines[1] == #"{"Name":"Zoë","Seats":null,"Home":null,"Name 2":null}"#)
        for line in lines.dropLast() {
            #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
        }
    }

    @Test func anIncompleteFileEndsWithALineSayingWhy() throws {
        var csv: [UInt8] = []
        ExportEncoder(spec: Self.spec, format: .csv).appendStop("Loading rows failed: HTTP 500, \"boom\"", rows: 10, to: &csv)
        #expect(String(decoding: csv, as: UTF8.self)
                == "\"# Rowstream export stopped after 10 rows: Loading rows failed: HTTP 500, \"\"boom\"\"\"\r\n")
        var ndjson: [UInt8] = []
        ExportEncoder(spec: Self.spec, format: .ndjson).appendStop("the row limit", rows: 7, limit: 7, to: &ndjson)
        #expect(ndjson.last == 0x0A)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(ndjson)) as? [String: Any])
        #expect(object["error"] as? String == "Rowstream export stopped after 7 rows: the row limit")
        #expect(object["rows"] as? Int == 7 && object["limit"] as? Int == 7)
    }
}
