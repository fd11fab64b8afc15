import Dashboard
import JSON
import Tables

/// libFuzzer target: the HTML row renderer and the table-spec loader (see Scripts/fuzz).
/// The input is JSON: an array of items (rendered with a fixed spec using every column format), or an object
/// `{"spec": ..., "items": [...]}` whose spec (a config file's table: `name`, `columns`, `key`, `sections`, ...) goes
/// through the config file's parser (``ConfigFile``); anything else is rendered as one
/// string in every field. For any input the output must be well-formed (`HTMLCheck`) and script-free.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTMLRenderer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var spec = fixedSpec
    var items: [JSONValue]
    switch try? JSONValue.parse(bytes) {
    case .array(let array)?:
        items = array
    case .object(let object)?:
        if let specJSON = object["spec"], let loaded = configuredSpec(specJSON) { spec = loaded }
        items = object["items"]?.arrayValue ?? [.object(object)]
    case let other?:
        items = [everyField(other)]
    case nil:
        items = [everyField(.string(String(decoding: bytes, as: UTF8.self)))]
    }
    let renderer = TableRenderer(spec: spec)
    let rows = renderer.renderRows(RowMaker(spec: spec).rows(items), startIndex: 0)
    if let problem = HTMLCheck.problem(in: rows, rowCount: items.count) {
        preconditionFailure("renderer output is not well-formed or not script-free: \(problem)")
    }
    if let problem = HTMLCheck.problem(in: renderer.skeletonRows(count: 2), rowCount: 2) {
        preconditionFailure("skeleton output: \(problem)")
    }
    return 0
}

/// `table` as one table of a config file (its request, items and pagination filled in when missing), read by the
/// config file's parser; nil when the parser refuses it.
private func configuredSpec(_ table: JSONValue) -> TableSpec? {
    guard case .object(var members) = table else { return nil }
    let filled: [(String, JSONValue)] = [("request", ["url": "http://a.example/items"]), ("items", "data"),
                                         ("pagination", ["style": "cursor", "cursorPath": "next"])]
    for (key, value) in filled where members[key] == nil { members[key] = value }
    let config: JSONValue = ["tables": [.object(members)]]
    return try? ConfigFile.parse(config.serialized(), file: "fuzz.json", environment: [:]).tables.first?.spec
}

private let fixedSpec = TableSpec(name: "fuzz", title: "Fuzz", columns: [
    Column(title: "<b>T</b>", field: try! JSONPath("a"), format: .text, width: "8rem"),
    Column(title: "N", field: try! JSONPath("b"), format: .number),
    Column(title: "D", field: try! JSONPath("c"), format: .date),
    Column(title: "L", field: try! JSONPath("d"), format: .link, labelField: try! JSONPath("a")),
    Column(title: "B", field: try! JSONPath("e"), format: .badge),
    Column(title: "X", field: try! JSONPath("f[0].g"), format: .text),
    // The charts: a bar against its batch's range and against a configured one, a progress, a sparkline (numbers at
    // Double's ends, such as [1.7e308, -1.7e308], once trapped a Double-to-Int conversion).
    Column(title: "Bar", field: try! JSONPath("b"), format: .bar),
    Column(title: "Ranged", field: try! JSONPath("b"), format: .bar, decimals: 2, range: -1e300...1e300),
    Column(title: "P", field: try! JSONPath("b"), format: .progress),
    Column(title: "S", field: try! JSONPath("s"), format: .sparkline),
], keyField: try! JSONPath("id"))

private func everyField(_ value: JSONValue) -> JSONValue {
    .object(["id": value, "a": value, "b": value, "c": value, "d": value, "e": value,
             "f": .array([.object(["g": value])]), "s": value])
}
