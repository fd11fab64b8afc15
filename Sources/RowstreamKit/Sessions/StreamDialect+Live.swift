import HTTPServer
import Tables

/// A live table's changes in a dialect: the events of one ``LiveDiff`` back to back, encoded once per dialect and
/// written to every viewer of that dialect (``LiveFeed``). Removes come first, then updates, then inserts, as in v1.
extension StreamDialect {
    func encode(_ diff: LiveDiff, table: String) -> [UInt8] {
        var bytes: [UInt8] = []
        if !diff.removed.isEmpty {
            // Datastar: one patch (a selector) per event.
            let groups = self == .datastar ? diff.removed.map { [$0] } : [diff.removed]
            for keys in groups {
                bytes += event("remove") { data in
                    for key in keys { data += removal(table: table, key: key) }
                }
            }
        }
        if !diff.updated.isEmpty {
            bytes += event("update") { data in
                if self == .datastar { data += Array("mode outer\ndata: elements ".utf8) }
                for row in diff.updated { data += replacement(table: table, row: row) }
            }
        }
        if !diff.inserted.isEmpty {
            let body = RowElementID.body(table: table)
            bytes += event("insert") { data in
                let rows = diff.inserted.flatMap { identified($0, table: table) }
                switch self {
                case .htmx:
                    data += Array("<tbody hx-swap-oob=\"afterbegin:#\(body)\">".utf8) + rows + Array("</tbody>".utf8)
                case .turbo:
                    data += Array("<turbo-stream action=\"prepend\" target=\"\(body)\"><template>".utf8) + rows
                    data += Array("</template></turbo-stream>".utf8)
                case .datastar:
                    data += Array("selector #\(body)\ndata: mode prepend\ndata: elements ".utf8) + rows
                }
            }
        }
        return bytes
    }

    /// One event of this dialect's name for `v1`, its data from `writeData`.
    private func event(_ v1: String, writeData: (inout [UInt8]) -> Void) -> [UInt8] {
        FramedSSEEvent(event: eventName(v1), id: nil, writeData: writeData).bytes
    }

    /// The markup that removes the row with `key`.
    private func removal(table: String, key: String) -> [UInt8] {
        let id = RowElementID.row(table: table, key: key)
        switch self {
        case .htmx: return Array("<tr id=\"\(id)\" hx-swap-oob=\"delete\"></tr>".utf8)
        case .turbo: return Array("<turbo-stream action=\"remove\" target=\"\(id)\"></turbo-stream>".utf8)
        case .datastar: return Array("selector #\(id)\ndata: mode remove".utf8)
        }
    }

    /// The markup that replaces the row with `row.key` by `row`.
    private func replacement(table: String, row: LiveRow) -> [UInt8] {
        let html = identified(row, table: table)
        switch self {
        case .htmx: return html.withAttribute(" hx-swap-oob=\"true\"")
        case .turbo:
            let id = RowElementID.row(table: table, key: row.key)
            return Array("<turbo-stream action=\"replace\" target=\"\(id)\"><template>".utf8) + html
                + Array("</template></turbo-stream>".utf8)
        case .datastar:
            // `outer` morphs each element into the one with its id.
            return html
        }
    }

    /// `row`'s `<tr>` with its id; its line breaks (written for v1's `data:` lines) as this dialect's.
    private func identified(_ row: LiveRow, table: String) -> [UInt8] {
        let html = row.html.withAttribute(" id=\"\(RowElementID.row(table: table, key: row.key))\"")
        guard self == .datastar else { return html }
        return html.replacingLineBreaks(with: Array(Self.datastarLineBreak.description.utf8))
    }
}

extension Array where Element == UInt8 {
    /// These bytes with every v1 data line break (``SSEEvent/dataLineBreak``) written as `lineBreak`.
    func replacingLineBreaks(with lineBreak: [UInt8]) -> [UInt8] {
        let v1 = Array(SSEEvent.dataLineBreak.description.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(count)
        var index = startIndex
        while index < endIndex {
            if self[index] == v1[0], index + v1.count <= endIndex, Array(self[index..<index + v1.count]) == v1 {
                out += lineBreak
                index += v1.count
            } else {
                out.append(self[index])
                index += 1
            }
        }
        return out
    }
}
