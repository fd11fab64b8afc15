import JSON
import Tables

/// The cases of ``RenderedBytesTests``: hostile and edge values in every format and table kind, rendered into one
/// buffer. Public API only, so the same file can render the golden bytes with an older Tables module.
enum RenderedBytesCases {
    static let values: [JSONValue] = [
        .null, .bool(true), .bool(false),
        .int(0), .int(-7), .int(999), .int(1_000), .int(-1_000), .int(1_234_567), .int(Int64.min), .int(Int64.max),
        .int(1_700_000_000), .int(-62_167_219_201),
        .double(0.005), .double(-1234.5), .double(1e15), .double(-0.0), .double(3.14159), .double(1e300),
        .double(1e21), .double(0.1), .double(123_456.789), .double(-0.5), .double(2.5), .double(1e-7),
        .double(1_700_000_000.5), .double(-1.25),
        .bigInteger("123456789012345678901"), .bigInteger("-98765432109876543210"),
        "", "plain", "<>&\"'", "a&&&&b<<<<>>>>\"\"''", "Zürich → 東京 & 😀 𝄞 🇺🇸", "😀<😀>",
        "a\rb\nc\r\nd\n\re\r", "\r\n", "\u{0}\u{1}\t\u{0C}\u{7F}x\u{0}", "\u{80}x\u{9F}é\u{85}\u{A0}°",
        "https://example.com/a?b=1&c=<2>&d='3'", "  HTTPS://x.test/p q  ", "\u{0}http://x.test/\u{7F}",
        "https://a.test/\r\nnext", "javascript:alert(1)", "JaVaScRiPt:alert(1)", "http://", "ftp://x", "//x.test",
        "2026-11-30", "2026-11-30T12:34:56Z", "2026-11-30T12:34:56.789+02:00", "2026-12-31T23:30:00-05:00",
        "0000-01-01T00:30:00+01:00", "9999-12-31T23:59:60Z", "2024-02-29t01:02", "2026-11-30 12:34",
        "2026-11-30T12:34:56+0530", "2026-02-29", "2026-13-40", "2026-11-30T12:34:56Z ", "2026-11-30T12:34:56.Z",
        "2026-11-30T24:00", "Open Issue #5!", "  Mixed CASE_slug-9  ", .string(String(repeating: "Ab1-", count: 20)),
        "it's <script>alert(1)</script>", "-12.50", "1,234", "12345678901234567890123",
        .array([.int(1), .string("<x>")]), .object(["k": .string("v&")]),
    ]

    static func path(_ text: String) -> JSONPath {
        // Literals known to be valid.
        try! JSONPath(text)
    }

    static let columns = [
        Column(title: "T<\"'&", field: path("a"), width: "8rem"),
        Column(title: "N", field: path("b"), format: .number),
        Column(title: "N2", field: path("b"), format: .number, decimals: 2),
        Column(title: "N0", field: path("b"), format: .number, decimals: 0),
        Column(title: "D", field: path("c"), format: .date),
        Column(title: "L", field: path("d"), format: .link, labelField: path("e")),
        Column(title: "L2", field: path("e"), format: .link),
        Column(title: "B", field: path("a"), format: .badge),
        Column(title: "Deep", field: path("g[0].h"), format: .text),
        Column(title: "Missing", field: path("zz"), format: .number),
    ]

    /// Item i holds value i in most columns and other values in the link label, the nested path and the key.
    static func items() -> [JSONValue] {
        let n = values.count
        var items: [JSONValue] = (0..<n).map { i in
            let v = values[i], w = values[(i * 7 + 3) % n], u = values[(i * 11 + 5) % n]
            var object: [String: JSONValue] = ["a": v, "b": v, "c": v, "d": v, "e": w,
                                               "g": .array([.object(["h": u])]), "s": values[(i / 6 * 5) % n]]
            switch i % 5 {
            case 0: break
            case 1: object["id"] = .int(Int64(i))
            case 2: object["id"] = .null
            case 3: object["id"] = .string("k<\(i)>&\"'é\r\n")
            default: object["id"] = u
            }
            return .object(object)
        }
        items.append(.null)
        items.append("not an object")
        return items
    }

    /// Rows a code table may give that no JSON item makes.
    static let codeRows = [
        Row(key: "c1", cells: [.decimal(.infinity), .decimal(.nan), .decimal(-.infinity), .bigInteger("12a"),
                               .decimal(.nan), .link("https://x.test/<", label: ""), .link("javascript:x", label: "<L>"),
                               .link("https://b.test", label: nil), .integer(5)]),
        Row(key: nil, cells: [.integer(-3), .bigInteger("-"), .bigInteger("1."), .bigInteger(".5"), .integer(86_399),
                              .text("https://t.test"), .decimal(2.5), .bigInteger("<9>")]),
        Row(key: "", cells: []),
    ]

    static func render() -> [UInt8] {
        let items = items()
        var spec = TableSpec(name: "g", title: "G", columns: columns, keyField: path("id"))
        var out: [UInt8] = []
        var rows = RowMaker(spec: spec).rows(items) + codeRows
        TableRenderer(spec: spec).appendRows(rows, startIndex: 3, to: &out)
        out.append(contentsOf: "\n--- framed, with row ids\n".utf8)
        TableRenderer(spec: spec).withRowIDs(table: "t<&>é").appendRows(rows, startIndex: 0, to: &out,
                                                                         lineBreak: "\ndata: ")
        out.append(contentsOf: "\n--- live rows\n".utf8)
        for (offset, row) in rows.enumerated() where offset % 4 == 1 {
            TableRenderer(spec: spec).appendRow(row, index: offset % 8 == 1 ? nil : offset, to: &out)
        }
        out.append(contentsOf: "\n--- sectioned, every other item\n".utf8)
        let someItems = items.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        spec.sections = SectionSpec(field: path("s"), footer: .sum(path("b")), footerLabel: "Sum<>")
        rows = RowMaker(spec: spec).rows(someItems)
        out.append(contentsOf: TableRenderer(spec: spec).renderRows(rows, startIndex: 0))
        out.append(contentsOf: "\n--- grid, the other items\n".utf8)
        spec.sections = nil
        spec.grid = GridSpec(titleField: path("a"), imageField: path("d"))
        rows = RowMaker(spec: spec).rows(items.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)) + codeRows
        out.append(contentsOf: TableRenderer(spec: spec).renderRows(rows, startIndex: 1))
        out.append(10)
        return out
    }
}
