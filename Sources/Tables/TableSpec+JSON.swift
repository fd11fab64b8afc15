import JSON

/// A table configuration that cannot be used, with a path-like location and the reason.
///
/// Thread-safe: an immutable value type.
public struct TableSpecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the configuration, e.g. `columns[2].width`.
    public let location: String
    /// What is wrong there.
    public let reason: String

    public var description: String { "table spec: \(location): \(reason)" }
}

extension TableSpec {
    /// Reads a spec from configuration JSON (optional convenience for config files):
    /// ```json
    /// {"name": "repos", "title": "Repositories", "keyField": "id",
    ///  "columns": [{"title": "Name", "field": "name", "format": "link", "width": "12rem",
    ///               "labelField": "full_name"}]}
    /// ```
    /// `format` defaults to "text", `title` to `name`, `keyField` to `"id"`. Paths are `JSONPath` syntax.
    /// Unknown formats, bad paths and widths that fail `Column.isValidWidth` are errors.
    public init(json: JSONValue) throws(TableSpecError) {
        guard let name = json["name"]?.stringValue, !name.isEmpty else {
            throw TableSpecError(location: "name", reason: "a non-empty string is required")
        }
        guard let columns = json["columns"]?.arrayValue, !columns.isEmpty else {
            throw TableSpecError(location: "columns", reason: "a non-empty array is required")
        }
        let key = try Self.path(json["keyField"]?.stringValue ?? "id", at: "keyField")
        var parsed: [Column] = []
        for (i, column) in columns.enumerated() {
            parsed.append(try Self.column(column, at: "columns[\(i)]"))
        }
        self.init(name: name, title: json["title"]?.stringValue ?? name, columns: parsed, keyField: key)
    }

    private static func column(_ json: JSONValue, at location: String) throws(TableSpecError) -> Column {
        guard let field = json["field"]?.stringValue else {
            throw TableSpecError(location: location + ".field", reason: "a path string is required")
        }
        let formatName = json["format"]?.stringValue ?? "text"
        guard let format = ColumnFormat(rawValue: formatName) else {
            let known = ColumnFormat.allCases.map(\.rawValue).joined(separator: ", ")
            throw TableSpecError(location: location + ".format", reason: "unknown format; use one of \(known)")
        }
        let width = json["width"]?.stringValue
        if let width, !Column.isValidWidth(width) {
            throw TableSpecError(location: location + ".width", reason: "expected a CSS length like 8rem, 120px, 20%")
        }
        let label = try json["labelField"]?.stringValue.map { (text) throws(TableSpecError) in
            try path(text, at: location + ".labelField")
        }
        return Column(title: json["title"]?.stringValue ?? field, field: try path(field, at: location + ".field"),
                      format: format, width: width, labelField: label)
    }

    private static func path(_ text: String, at location: String) throws(TableSpecError) -> JSONPath {
        do throws(JSONError) {
            return try JSONPath(text)
        } catch {
            throw TableSpecError(location: location, reason: error.description)
        }
    }
}
