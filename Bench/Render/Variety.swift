import Foundation
import JSON
import Tables

/// `--dump`: the renderer's output over many shapes of input, for byte-for-byte comparison across versions.
enum Variety {
    /// Edge values for every column: each format meets every JSON shape.
    static let values: [JSONValue] = [
        .null, .bool(true), .bool(false), .int(0), .int(-7), .int(Int64.min), .int(Int64.max), .int(1_234_567),
        .double(0.005), .double(-1234.5), .double(1e15), .double(-0.0), .double(3.14159), .double(1e300),
        .bigInteger("123456789012345678901"), .bigInteger("-98765432109876543210"),
        .string(""), .string("plain"), .string("<>&\"'"), .string("Zürich → 東京 & 😀"), .string("a&&&&b<<<<"),
        .string("https://example.com/a?b=1&c=<2>"), .string("  HTTPS://x.test/  "), .string("javascript:alert(1)"),
        .string("http://"), .string("ftp://x"), .string("2026-11-30"), .string("2026-11-30T12:34:56Z"),
        .string("2026-11-30T12:34:56.789+02:00"), .string("2026-13-40"), .string("Open Issue #5!"),
        .string(String(repeating: "Ab1-", count: 20)), .string("\u{0}\u{1}\t\n"),
        .array([.int(1), .string("<x>")]), .object(["k": .string("v&")]),
        .array([.int(3), .double(-1.5), .int(12), .bigInteger("123456789012345678901")]), .array([]), .double(0.425),
    ]

    static func path(_ text: String) -> JSONPath { try! JSONPath(text) }

    static let columns = [
        Column(title: "T<\"", field: path("a"), width: "8rem"),
        Column(title: "N", field: path("b"), format: .number),
        Column(title: "D", field: path("c"), format: .date),
        Column(title: "L", field: path("d"), format: .link, labelField: path("e")),
        Column(title: "L2", field: path("e"), format: .link),
        Column(title: "B", field: path("f"), format: .badge),
        Column(title: "Deep", field: path("g[0].h"), format: .text),
        Column(title: "Missing", field: path("zz"), format: .number),
        Column(title: "Bar", field: path("b"), format: .bar, decimals: 1, range: -10...1_000_000),
        Column(title: "Bar seen", field: path("a"), format: .bar),   // no range: each batch's own
        Column(title: "Spark", field: path("a"), format: .sparkline),
        Column(title: "Done", field: path("b"), format: .progress),
    ]

    static func items() -> [JSONValue] {
        var items: [JSONValue] = []
        let n = values.count
        for i in 0..<(n * n) {
            let v = values[i % n], w = values[(i / n) % n], u = values[(i * 7 + 3) % n]
            var object: [String: JSONValue] = ["a": v, "b": v, "c": v, "d": w, "e": u, "f": v,
                                               "g": .array([.object(["h": w])]), "s": .string("S\((i / 9) % 4)")]
            if i % 5 != 0 { object["id"] = i % 3 == 0 ? .string("k<\(i)>") : (i % 7 == 0 ? .null : .int(Int64(i))) }
            items.append(.object(object))
        }
        items.append(.null)
        items.append(.string("not an object"))
        return items
    }

    static func dump() {
        let items = items()
        var plain = TableSpec(name: "p", title: "P", columns: columns, keyField: path("id"))
        var out: [UInt8] = []
        var rows = RowMaker(spec: plain).rows(items)
        TableRenderer(spec: plain).appendRows(rows, startIndex: 3, to: &out)
        out.append(10)
        for index in [nil, 0, 42] as [Int?] {
            TableRenderer(spec: plain).appendRow(rows[5], index: index, to: &out)
        }
        plain.sections = SectionSpec(field: path("s"), footer: .sum(path("b")), footerLabel: "Sum<>")
        rows = RowMaker(spec: plain).rows(items)
        TableRenderer(spec: plain).appendRows(rows, startIndex: 0, to: &out)
        out.append(10)
        plain.sections = nil
        plain.grid = GridSpec(titleField: path("a"), imageField: path("d"))
        rows = RowMaker(spec: plain).rows(items)
        out.append(contentsOf: TableRenderer(spec: plain).renderRows(rows, startIndex: 1))
        out.append(contentsOf: TableRenderer(spec: plain).skeletonRows(count: 2))
        FileHandle.standardOutput.write(Data(out))
    }
}
