import JSON
import Tables

/// The bench table with the chart formats added (a bar against a range, a 12-point sparkline, a progress): its cells
/// per second on one thread and bytes per row, for the figure "render with charts" (BENCHMARKS.md). Prints nothing
/// itself: its JSON members follow the main figure's.
enum Charts {
    /// The bench's `columns` and `items` (main.swift) with the chart columns and their values added.
    static func measure(columns: [Column], items: [JSONValue], rounds: Int) -> String {
        func path(_ text: String) -> JSONPath { try! JSONPath(text) }   // literals known to be valid
        let count = items.count
        let chartColumns = columns + [
            Column(title: "MRR", field: path("mrr"), format: .bar, decimals: 2, range: 0...250_000),
            Column(title: "Trend", field: path("trend"), format: .sparkline),
            Column(title: "Done", field: path("done"), format: .progress),
        ]
        let spec = TableSpec(name: "charts", title: "Charts", columns: chartColumns, keyField: path("id"))
        let renderer = TableRenderer(spec: spec)
        let rows = RowMaker(spec: spec).rows(items.enumerated().map { n, item in
            guard case .object(var members) = item else { return item }
            members["mrr"] = .double(Double(n &* 7_919 % 25_000_000) / 100)
            members["trend"] = .array((0..<12).map { week in .int(Int64((n &* 31 &+ week &* 17) % 5_000)) })
            members["done"] = .double(Double(n % 101) / 100)
            return .object(members)
        })
        var buffer: [UInt8] = []
        buffer.reserveCapacity(count * 2_048)
        renderer.appendRows(rows, startIndex: 0, to: &buffer)   // warm-up
        var bytes = 0, seconds = 0.0
        let clock = ContinuousClock()
        for _ in 0..<rounds {
            let start = clock.now
            buffer.removeAll(keepingCapacity: true)
            renderer.appendRows(rows, startIndex: 0, to: &buffer)
            bytes &+= buffer.count
            seconds += (clock.now - start).seconds
        }
        let cells = count * rounds * chartColumns.count
        return ",\"charts_cells_per_second\":\(Int(Double(cells) / seconds)),"
            + "\"charts_bytes_per_row\":\(bytes / (count * rounds))"
    }
}
