import JSON
import Tables

/// `--page-rounds P`: reading one demo-like upstream page (100 items of 10 members, a table showing 5 of them and a
/// key) into rows, the two ways, alternating round by round: the whole page parsed into `JSONValue`s, then
/// `evaluateAll` and `RowMaker.row(_:)` ("old"); the page parsed with its items left as bytes, then
/// `RowMaker.row(json:)` per item ("new"). Reports each way's median microseconds per page and their ratio.
enum PageReading {
    static let itemsPath = path("items[]")

    /// The page's JSON text.
    static func page() -> [UInt8] {
        let items = (0..<100).map { n in
            """
            {"id":\(1_000_000 + n),"name":\(json("repo-\(n) " + hostile[n % hostile.count])),"full_name":"owner\(n % 7)/repo-\(n)",\
            "owner":{"login":"owner\(n % 7)","id":\(n % 7),"type":"User","site_admin":false},\
            "description":"\(String(repeating: "A line of description text \\u00e9 ", count: 4))",\
            "stars":\(n &* 7919 % 100_000),"forks":\(n &* 31 % 1000),"updated":"2026-11-\(10 + n % 19)T12:34:56Z",\
            "url":"https://example.com/r/\(n)?a=1&b=2","topics":["swift","sse","tables","\(n)"],"archived":\(n % 5 == 0)}
            """
        }
        return Array(("{\"total_count\":100,\"items\":[\n" + items.joined(separator: ",\n") + "\n],\"next\":\"c2\"}").utf8)
    }

    /// `text` as a JSON string literal.
    private static func json(_ text: String) -> String { String(decoding: JSONValue.string(text).serialized(), as: UTF8.self) }

    static func measure(rounds: Int) -> String {
        let spec = TableSpec(name: "page", title: "Page", columns: [
            Column(title: "Name", field: path("name")),
            Column(title: "Owner", field: path("owner.login")),
            Column(title: "Stars", field: path("stars"), format: .number),
            Column(title: "Updated", field: path("updated"), format: .date),
            Column(title: "Link", field: path("url"), format: .link),
        ], keyField: path("id"))
        let maker = RowMaker(spec: spec)
        let page = page()
        var old: [Double] = [], new: [Double] = []
        let clock = ContinuousClock()
        var checksum = 0
        page.withUnsafeBufferPointer { buffer in
            for _ in 0..<rounds {
                var start = clock.now
                guard let whole = try? JSONValue.parse(buffer: buffer).get() else { fail("the page does not parse") }
                let oldRows = itemsPath.evaluateAll(whole).map(maker.row)
                old.append((clock.now - start).seconds)
                start = clock.now
                guard let document = try? JSONValue.parse(buffer: buffer, itemsAt: itemsPath).get(),
                      let newRows = try? document.items.map({ range throws(JSONError) in
                          try maker.row(json: UnsafeBufferPointer(rebasing: buffer[range]))
                      }) else { fail("the page's items do not read") }
                new.append((clock.now - start).seconds)
                guard oldRows == newRows, oldRows.count == 100 else { fail("the two ways made different rows") }
                checksum &+= newRows.count
            }
        }
        let oldMedian = median(old), newMedian = median(new)
        return ",\"page_rows\":\(checksum),\"page_old_us\":\(oldMedian * 1e6),\"page_new_us\":\(newMedian * 1e6),"
            + "\"page_ratio_old_to_new\":\(oldMedian / newMedian)"
    }

    private static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
}
