import Foundation
import JSON
import Tables

// rowstream-bench-render: escaped table cells rendered per second on one thread (one core), through the
// Tables module's TableRenderer over typed rows made (by a RowMaker, once, untimed) from generated items full of
// characters that must be escaped. Prints one JSON line; with `--make-rounds M` also `make_cells_per_second`, the
// RowMaker's own rate (items to rows), timed separately over M rounds. Same-run references beside it: a plain escape
// loop over the same cells' text and memcpy of the output (Reference.swift), and the renderer's ratio to the loop.
// With `--page-rounds P`, also a demo-like page read into rows the old and the new way (PageReading.swift). Also
// the same table with a bar, a sparkline and a progress column added (Charts.swift): charts_cells_per_second and
// charts_bytes_per_row, beside bytes_per_row of the plain table.
// Usage: rowstream-bench-render [--items N] [--rounds R] [--make-rounds M] [--page-rounds P]   (all bounded)
// `--dump` prints instead the rendered bytes of plain, sectioned and grid tables over the bench items and edge
// values (see Variety.swift): compare its output before and after a renderer change (it must be byte-identical).
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("rowstream-bench-render: \(message)\n".utf8))
    exit(2)
}

var itemCount = 1_000, rounds = 200, makeRounds = 0, pageRounds = 0
var arguments = CommandLine.arguments.dropFirst()
if arguments.first == "--dump" {
    Variety.dump()
    exit(0)
}
while let flag = arguments.popFirst() {
    guard let value = arguments.popFirst().flatMap({ Int($0) }), value > 0 else { fail("\(flag) needs a number") }
    switch flag {
    case "--items": itemCount = min(value, 100_000)
    case "--rounds": rounds = min(value, 100_000)
    case "--make-rounds": makeRounds = min(value, 100_000)
    case "--page-rounds": pageRounds = min(value, 100_000)
    default: fail("unknown flag \(flag)")
    }
}

/// Hostile text: every HTML-special character, quotes, non-ASCII and a would-be script.
let hostile = ["<b>bold</b> & \"quoted\"", "it's <script>alert(1)</script>", "Zürich → 東京 & back",
               "plain words only", "a > b && c < d", "'single' \"double\" `tick`"]

func item(_ n: Int) -> JSONValue {
    .object([
        "id": .int(Int64(n)),
        "name": .string(hostile[n % hostile.count] + " #\(n)"),
        "owner": .string(hostile[(n + 3) % hostile.count]),
        "stars": .int(Int64(n &* 7919 % 100_000)),
        "updated": .string("2026-11-\(10 + n % 19)T12:34:56Z"),
        "url": .string("https://example.com/r/\(n)?a=1&b=<2>"),
        "state": .string(n % 3 == 0 ? "open" : "closed \"<x>\""),
    ])
}

func path(_ text: String) -> JSONPath {
    do { return try JSONPath(text) } catch { fail("bad path \(text)") }
}

let columns = [
    Column(title: "Name", field: path("name")),
    Column(title: "Owner", field: path("owner")),
    Column(title: "Stars", field: path("stars"), format: .number),
    Column(title: "Updated", field: path("updated"), format: .date),
    Column(title: "Link", field: path("url"), format: .link),
    Column(title: "State", field: path("state"), format: .badge),
]
let spec = TableSpec(name: "bench", title: "Bench", columns: columns, keyField: path("id"))
let renderer = TableRenderer(spec: spec)
let maker = RowMaker(spec: spec)
let items = (0..<itemCount).map(item)
let rows = maker.rows(items)

var buffer: [UInt8] = []
buffer.reserveCapacity(itemCount * 1_024)
renderer.appendRows(rows, startIndex: 0, to: &buffer)   // warm-up
// The same-run references (Reference.swift), timed round by round between the renderer's rounds, so a change in
// the machine's speed during the run moves all three alike.
let cellTexts = Reference.cellTexts(items, fields: ["name", "owner", "stars", "updated", "url", "state"])
let escapeRoom = cellTexts.bytes.count * 6
let escaped = UnsafeMutablePointer<UInt8>.allocate(capacity: escapeRoom)
let copied = UnsafeMutableRawPointer.allocate(byteCount: buffer.capacity, alignment: 16)
var bytes = 0, escapedBytes = 0, copiedBytes = 0
var seconds = 0.0, escapeSeconds = 0.0, copySeconds = 0.0
let clock = ContinuousClock()
for _ in 0..<rounds {
    var start = clock.now
    buffer.removeAll(keepingCapacity: true)
    renderer.appendRows(rows, startIndex: 0, to: &buffer)
    bytes &+= buffer.count
    seconds += (clock.now - start).seconds
    start = clock.now
    escapedBytes &+= Reference.escape(cellTexts, into: escaped)
    escapeSeconds += (clock.now - start).seconds
    start = clock.now
    buffer.withUnsafeBytes { copied.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    copiedBytes &+= buffer.count
    copySeconds += (clock.now - start).seconds
}
let cells = itemCount * rounds * columns.count
let escapeCellsPerSecond = Double(cells) / escapeSeconds
let reference = ",\"escape_loop_cells_per_second\":\(Int(escapeCellsPerSecond)),"
    + "\"escape_loop_bytes_per_second\":\(Int(Double(escapedBytes) / escapeSeconds)),"
    + "\"render_bytes_per_second\":\(Int(Double(bytes) / seconds)),"
    + "\"memcpy_bytes_per_second\":\(Int(Double(copiedBytes) / copySeconds)),"
    + "\"render_ratio_to_escape_loop\":\(Double(cells) / seconds / escapeCellsPerSecond)"
var make = ""
if makeRounds > 0 {
    var made = 0
    let makeStart = clock.now
    for _ in 0..<makeRounds { made &+= maker.rows(items).count }
    make = ",\"make_cells_per_second\":\(Int(Double(made * columns.count) / (clock.now - makeStart).seconds))"
}
let page = pageRounds > 0 ? PageReading.measure(rounds: pageRounds) : ""
let charts = Charts.measure(columns: columns, items: items, rounds: max(rounds / 4, 1))
print("{\"cells\":\(cells),\"bytes\":\(bytes),\"seconds\":\(seconds),"
      + "\"cells_per_second\":\(Int(Double(cells) / seconds)),\"bytes_per_row\":\(bytes / (itemCount * rounds))"
      + "\(reference)\(make)\(page)\(charts)}")

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
