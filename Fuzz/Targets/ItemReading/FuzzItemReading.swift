import JSON
import Tables

/// libFuzzer target: reading items as bytes (see Scripts/fuzz). The first input byte picks an items path and a row
/// spec's paths, the second the depth limit; the rest is a JSON document. `parse(buffer:maxDepth:itemsAt:)`,
/// `members(named:in:)` and `value(at:in:)` accept exactly what `parse` accepts, failing with the same error; the
/// items' ranges hold exactly `evaluateAll`'s values, with no whitespace around them; the document equals the whole
/// one outside the items; and `RowMaker.row(json:)` of the document and of each item equals `row(_:)` of its parse.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzItemReading(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let path = itemPaths[Int(data[0]) % itemPaths.count]
    let maker = makers[Int(data[0]) / itemPaths.count % makers.count]
    let maxDepth = Int(data[1] % 8) + 1 == 8 ? 64 : Int(data[1] % 8) + 1
    let buffer = UnsafeBufferPointer(start: data + 2, count: size - 2)

    let whole = JSONValue.parse(buffer: buffer, maxDepth: maxDepth)
    let read = JSONValue.parse(buffer: buffer, maxDepth: maxDepth, itemsAt: path)
    let members = Result { () throws(JSONError) in try JSONValue.members(named: names, in: buffer, maxDepth: maxDepth) }
    let value = Result { () throws(JSONError) in try JSONValue.value(at: path, in: buffer, maxDepth: maxDepth) }
    let row = Result { () throws(JSONError) in try maker.row(json: buffer, maxDepth: maxDepth) }
    guard case .success(let full) = whole else {
        let error = whole.failure
        precondition(read.failure == error && members.failure == error && value.failure == error && row.failure == error,
                     "a reader's error differs from the parse's \(String(describing: error))")
        return 0
    }
    guard case .success(let document) = read else { preconditionFailure("parse(itemsAt:) rejects what parse accepts") }
    let expected = path.evaluateAll(full)
    precondition(document.items.count == expected.count, "not the items evaluateAll finds")
    for (range, item) in zip(document.items, expected) {
        let bytes = UnsafeBufferPointer(rebasing: buffer[range])
        precondition(!isWhitespace(bytes.first!) && !isWhitespace(bytes.last!), "whitespace in an item's range")
        precondition((try? JSONValue.parse(buffer: bytes, maxDepth: 64).get()) == item, "an item's bytes are another value")
        precondition((try? maker.row(json: bytes)) == maker.row(item), "row(json:) of an item differs")
    }
    precondition(agrees(document.document, full, path.components[...]), "the document differs outside the items")
    precondition((try? members.get()) == names.names.map { full.objectValue?[$0] }, "members(named:) differ")
    precondition(value.failure == nil && (try? value.get()) == path.evaluate(full), "value(at:) differs")
    precondition((try? row.get()) == maker.row(full), "row(json:) differs")
    return 0
}

private let itemPaths: [JSONPath] = ["", "[]", "items[]", "a", "a[-1]", "a[0].b", "data.edges[].node", "[][1]", "b[]"]
    .map { try! JSONPath($0) }

private let names = JSONMemberNames(["a", "items", "b", "a", "\u{e9}"])

/// Row makers whose paths start with keys only (member reading, some members only as far as nested keys go), and one
/// with a root and an index path (whole item).
private let makers: [RowMaker] = [["a", "b.c", "items[-1]", "id"], ["a[0]", "a", "b[].c", "\u{e9}"], ["", "[0]", "a"],
                                  ["a.b", "a.c.d", "items.a", "a.c.e"]]
    .map { fields in
        var spec = TableSpec(name: "f", title: "F", columns: ColumnFormat.allCases.enumerated().map { index, format in
            Column(title: "c", field: try! JSONPath(fields[index % fields.count]), format: format,
                   labelField: format == .link ? try! JSONPath(fields[(index + 1) % fields.count]) : nil)
        }, keyField: try! JSONPath(fields[0]))
        spec.sections = SectionSpec(field: try! JSONPath(fields[1]), footer: .sum(try! JSONPath(fields[2])))
        spec.grid = GridSpec(titleField: try! JSONPath(fields[3 % fields.count]), imageField: try! JSONPath(fields[1]))
        return RowMaker(spec: spec)
    }

/// Whether `document` is `full` but at the positions `rest` matches (an index matching any element), where anything
/// may stand: compared side by side.
private func agrees(_ document: JSONValue, _ full: JSONValue, _ rest: ArraySlice<JSONPath.Component>) -> Bool {
    guard let first = rest.first else { return true }
    switch (first, document, full) {
    case (.key(let key), .object(let built), .object(let whole)):
        return built.count == whole.count && built.allSatisfy { name, value in
            guard let other = whole[name] else { return false }
            return name == key ? agrees(value, other, rest.dropFirst()) : value == other
        }
    case (.index, .array(let built), .array(let whole)), (.each, .array(let built), .array(let whole)):
        return built.count == whole.count && zip(built, whole).allSatisfy { agrees($0, $1, rest.dropFirst()) }
    default:
        return document == full
    }
}

private func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
