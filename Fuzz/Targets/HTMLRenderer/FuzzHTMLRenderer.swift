import JSON
import Tables

/// libFuzzer target: the HTML row renderer and the table-spec loader (see Scripts/fuzz).
/// The input is JSON: an array of items (rendered with a fixed spec using every column format), or an object
/// `{"spec": ..., "items": [...]}` whose spec goes through `TableSpec(json:)`; anything else is rendered as one
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
        if let specJSON = object["spec"], let loaded = try? TableSpec(json: specJSON) { spec = loaded }
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

private let fixedSpec = TableSpec(name: "fuzz", title: "Fuzz", columns: [
    Column(title: "<b>T</b>", field: try! JSONPath("a"), format: .text, width: "8rem"),
    Column(title: "N", field: try! JSONPath("b"), format: .number),
    Column(title: "D", field: try! JSONPath("c"), format: .date),
    Column(title: "L", field: try! JSONPath("d"), format: .link, labelField: try! JSONPath("a")),
    Column(title: "B", field: try! JSONPath("e"), format: .badge),
    Column(title: "X", field: try! JSONPath("f[0].g"), format: .text),
], keyField: try! JSONPath("id"))

private func everyField(_ value: JSONValue) -> JSONValue {
    .object(["id": value, "a": value, "b": value, "c": value, "d": value, "e": value,
             "f": .array([.object(["g": value])])])
}
