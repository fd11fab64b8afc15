import JSON
import Tables

extension TableConfig {
    /// A table's `sections` object: `{"by": PATH, "footer": "none" | "count" | "sum", "sum": PATH, "label": TEXT}`.
    /// `sum` is required with `"footer": "sum"` and an error otherwise.
    static func sections(_ reader: ConfigReader) throws(ConfigError) -> SectionSpec {
        var reader = reader
        try reader.rejectUnknown(["by", "footer", "sum", "label"])
        guard let field = try reader.jsonPath("by") else {
            throw reader.error("by", "the JSON path of the value rows are grouped by")
        }
        let footerName = try reader.string("footer") ?? "none"
        let sum = try reader.jsonPath("sum")
        let footer: SectionSpec.Footer
        switch footerName {
        case "none": footer = .none
        case "count": footer = .count
        case "sum":
            guard let sum else { throw reader.error("sum", "the JSON path of the numeric value to add up") }
            footer = .sum(sum)
        default: throw reader.error("footer", "one of none, count, sum")
        }
        if sum != nil, footerName != "sum" { throw reader.error("sum", "only with \"footer\": \"sum\"") }
        let label = try reader.string("label") ?? "Total"
        try reader.finish()
        return SectionSpec(field: field, footer: footer, footerLabel: label)
    }
}
