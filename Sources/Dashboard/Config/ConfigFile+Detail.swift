import JSON
import Tables

extension TableConfig {
    /// A table's `detail` object (docs/CONFIG.md "Row detail"): `{"fields": [{"path": PATH, "label": TEXT,
    /// "format": FORMAT}], "link": PATH, "linkLabel": TEXT}`. At least one field or a link; each field needs a path
    /// (its label defaults to the path), at most ``DetailSpec/maximumFields``; `linkLabel` only with `link`.
    static func detail(_ reader: ConfigReader) throws(ConfigError) -> DetailSpec {
        var reader = reader
        try reader.rejectUnknown(["fields", "link", "linkLabel"])
        var fields: [DetailSpec.Field] = []
        if let list = try reader.array("fields") {
            guard list.count <= DetailSpec.maximumFields else {
                throw reader.error("fields", "at most \(DetailSpec.maximumFields) fields")
            }
            for (i, element) in list.enumerated() {
                let field = try ConfigReader(element, file: reader.file, path: reader.keyPath("fields") + "[\(i)]")
                fields.append(try detailField(field))
            }
        }
        let link = try reader.jsonPath("link")
        let linkLabel = try reader.string("linkLabel")
        if let linkLabel, link == nil || linkLabel.isEmpty {
            throw reader.error("linkLabel", link == nil ? "only with \"link\"" : "a non-empty string")
        }
        guard !fields.isEmpty || link != nil else {
            throw reader.error("fields", "a non-empty array of {\"path\", \"label\"} fields (or a \"link\" path)")
        }
        try reader.finish()
        return DetailSpec(fields: fields, link: link, linkLabel: linkLabel ?? DetailSpec.defaultLinkLabel)
    }

    /// The formats a detail field cannot have: charts are drawn in the table's cells only (the detail shows text).
    private static let chartFormats: Set<ColumnFormat> = [.bar, .sparkline, .progress]

    /// One field of `detail.fields`: its `format` any column's but a chart's.
    private static func detailField(_ reader: ConfigReader) throws(ConfigError) -> DetailSpec.Field {
        var reader = reader
        try reader.rejectUnknown(["path", "label", "format"])
        guard let path = try reader.jsonPath("path") else { throw reader.error("path", "the JSON path of the value in an item") }
        let label = try reader.string("label") ?? path.description
        guard !label.isEmpty else { throw reader.error("label", "a non-empty string") }
        let formatName = try reader.string("format") ?? "text"
        guard let format = ColumnFormat(rawValue: formatName), !chartFormats.contains(format) else {
            let shown = ColumnFormat.allCases.filter { !chartFormats.contains($0) }.map(\.rawValue).joined(separator: ", ")
            throw reader.error("format", "one of \(shown) (bar, sparkline and progress are for columns)")
        }
        try reader.finish()
        return DetailSpec.Field(label: label, path: path, format: format)
    }
}
