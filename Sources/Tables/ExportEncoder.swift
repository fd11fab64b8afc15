import JSON

/// Writes a table's typed rows (``Row``) as an export file (``ExportFormat``), one row at a time into the caller's
/// buffer, so a file of any length is written in pieces and no row is kept once written.
///
/// Values are the rows' typed cells as the upstream (or the row template) gave them, not the page's display form:
/// numbers without grouping, dates as sent, a link's URL. In CSV, text that a spreadsheet would run as a formula is
/// neutralized (``CSVField``); numbers are written as numbers (`-5` stays negative).
///
/// Thread-safe: an immutable value.
package struct ExportEncoder: Sendable {
    package let format: ExportFormat
    private let titles: [String]
    /// NDJSON member names, one per column: the titles, made unique (`Name`, `Name 2`), an empty one `column N`.
    private let names: [String]

    /// The encoder of `spec`'s columns in `format`.
    package init(spec: TableSpec, format: ExportFormat) {
        self.format = format
        titles = spec.columns.map(\.title)
        var seen: Set<String> = []
        names = titles.enumerated().map { index, title in
            let base = title.isEmpty ? "column \(index + 1)" : title
            var name = base
            var copy = 1
            while !seen.insert(name).inserted {
                copy += 1
                name = "\(base) \(copy)"
            }
            return name
        }
    }

    /// What the file starts with: CSV's header record of the column titles (neutralized too); nothing for NDJSON.
    package func header() -> [UInt8] {
        guard format == .csv else { return [] }
        var out: [UInt8] = []
        for (index, title) in titles.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            CSVField.append(title, neutralizing: true, to: &out)
        }
        out += [0x0D, 0x0A]
        return out
    }

    /// Appends `row`: one CSV record (CRLF-terminated) or one JSON object and LF. Cells past the last column are
    /// left out; missing ones are empty (CSV) or `null` (NDJSON).
    package func append(_ row: Row, to out: inout [UInt8]) {
        switch format {
        case .csv:
            for index in titles.indices {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                guard index < row.cells.count else { continue }
                let cell = row.cells[index]
                switch cell {
                case .empty: break
                case .text(let text), .link(let text, _): CSVField.append(text, neutralizing: true, to: &out)
                case .integer, .decimal, .bigInteger, .series:   // a series as its JSON array, `[3,5,8]`
                    CSVField.append(cell.displayText ?? "", neutralizing: false, to: &out)
                }
            }
            out += [0x0D, 0x0A]
        case .ndjson:
            out.append(UInt8(ascii: "{"))
            for (index, name) in names.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.string(name).serialize(into: &out)
                out.append(UInt8(ascii: ":"))
                Self.json(index < row.cells.count ? row.cells[index] : .empty).serialize(into: &out)
            }
            out += Array("}\n".utf8)
        }
    }

    /// Appends the line that ends an incomplete file: CSV, one record `# Rowstream export stopped after N rows: WHY`;
    /// NDJSON, `{"error": "Rowstream export stopped after N rows: WHY", "rows": N}` (and `"limit": N` when the row
    /// limit stopped it). A file without it is complete.
    package func appendStop(_ reason: String, rows: Int, limit: Int? = nil, to out: inout [UInt8]) {
        let message = "Rowstream export stopped after \(rows) rows: \(reason)"
        switch format {
        case .csv:
            CSVField.append("# " + message, neutralizing: false, to: &out)
            out += [0x0D, 0x0A]
        case .ndjson:
            var object: [String: JSONValue] = ["error": .string(message), "rows": .int(Int64(rows))]
            if let limit { object["limit"] = .int(Int64(limit)) }
            JSONValue.object(object).serialize(into: &out)
            out.append(0x0A)
        }
    }

    /// A cell as a JSON value: text and links as strings, numbers as numbers, empty as `null`.
    private static func json(_ cell: Cell) -> JSONValue {
        switch cell {
        case .empty: .null
        case .text(let text), .link(let text, _): .string(text)
        case .integer(let number): .int(number)
        case .decimal(let number): number.isFinite ? .double(number) : .null
        case .bigInteger(let digits): .bigInteger(digits)
        case .series(let numbers): .array(numbers.map(Cell.json))
        }
    }
}
