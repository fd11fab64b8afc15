import Foundation
import JSON
@testable import Tables

/// Test helpers: one-column tables and bytes as text.
enum Support {
    static func path(_ text: String) -> JSONPath {
        // Test paths are literals known to be valid.
        try! JSONPath(text)
    }

    static func renderer(_ format: ColumnFormat, labelField: String? = nil, width: String? = nil,
                         decimals: Int? = nil) -> TableRenderer {
        let column = Column(title: "V", field: path("v"), format: format, width: width,
                            labelField: labelField.map(path), decimals: decimals)
        return TableRenderer(spec: TableSpec(name: "t", title: "T", columns: [column], keyField: path("id")))
    }

    /// The inner HTML of the single cell rendered for `value` in a one-column table of `format`.
    static func cell(_ format: ColumnFormat, _ value: JSONValue, item extra: [String: JSONValue] = [:],
                     labelField: String? = nil, decimals: Int? = nil) -> String {
        var members = extra
        members["v"] = value
        let html = text(renderer(format, labelField: labelField, decimals: decimals)
            .renderRows([.object(members)], startIndex: 0))
        let open = "<td class=\"rs-c rs-\(format.className)\">"
        guard let start = html.range(of: open), let end = html.range(of: "</td></tr>", options: .backwards) else {
            return "<<unparseable row: \(html)>>"
        }
        return String(html[start.upperBound..<end.lowerBound])
    }

    static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    static func count(of needle: String, in haystack: String) -> Int {
        haystack.components(separatedBy: needle).count - 1
    }
}

/// The renderer over upstream items, as a config table renders them: each item made into a `Row` by the spec's
/// `RowMaker`, then the rows rendered. The tests below state their cases as items.
extension TableRenderer {
    func renderRows(_ items: [JSONValue], startIndex: Int) -> [UInt8] {
        renderRows(RowMaker(spec: spec).rows(items), startIndex: startIndex)
    }

    func appendRows(_ items: [JSONValue], startIndex: Int, to buffer: inout [UInt8]) {
        appendRows(RowMaker(spec: spec).rows(items), startIndex: startIndex, to: &buffer)
    }

    func appendRow(_ item: JSONValue, index: Int?, to buffer: inout [UInt8]) {
        appendRow(RowMaker(spec: spec).row(item), index: index, to: &buffer)
    }
}
