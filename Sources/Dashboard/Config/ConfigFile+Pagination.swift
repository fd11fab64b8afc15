import JSON
import Upstream

/// The `pagination` object of a table: a style and the keys that style uses (keys of other styles are errors).
///
/// A throwaway value used while parsing. Pure.
struct PaginationConfig {
    var style: PaginationStyle
    var sizeParameter: String?
    var hasMorePath: JSONPath?
    var maxEmptyPages: Int
    /// `total`: where the body reports the list's item count, shown as "150 of 2,500" (``PageChecks/totalPath``).
    var totalPath: JSONPath?

    static let styles = ["link-header", "next-url", "cursor", "keyset", "offset", "page"]

    init(_ reader: ConfigReader, keyPath key: JSONPath) throws(ConfigError) {
        var reader = reader
        let styleName = try reader.requiredString("style", "one of " + Self.styles.joined(separator: ", "))
        let defaultSize = styleName == "page" ? "per_page" : "limit"
        switch reader.value("sizeParameter") {
        case nil: sizeParameter = defaultSize
        case .null?: sizeParameter = nil
        case .string(let name)? where !name.isEmpty: sizeParameter = name
        default: throw reader.error("sizeParameter", "a query parameter name, or null to send no page size")
        }
        hasMorePath = try reader.jsonPath("hasMorePath")
        maxEmptyPages = try reader.int("maxEmptyPages", in: 0...100) ?? 5
        totalPath = try reader.jsonPath("total")
        if let totalPath, totalPath.components.contains(.each) {
            throw reader.error("total", "the JSON path of one number, such as count or meta.total (no [])")
        }
        switch styleName {
        case "link-header":
            style = .linkHeader
        case "next-url":
            guard let path = try reader.jsonPath("nextPath") else { throw reader.error("nextPath", "the JSON path of the next page's URL, such as links.next") }
            style = .nextURL(path: path)
        case "cursor":
            guard let path = try reader.jsonPath("cursorPath") else { throw reader.error("cursorPath", "the JSON path of the next cursor, such as meta.next_token") }
            let parameter = try reader.string("cursorParameter") ?? "cursor"
            switch try reader.string("cursorIn") ?? "query" {
            case "query": style = .cursor(parameter: parameter, nextCursorPath: path)
            case "body": style = .cursorInBody(field: parameter, nextCursorPath: path)
            default: throw reader.error("cursorIn", "query or body")
            }
        case "keyset":
            let parameter = try reader.string("keyParameter") ?? "starting_after"
            style = .keyset(parameter: parameter, keyPath: try reader.jsonPath("keyPath") ?? key)
        case "offset":
            let parameter = try reader.string("offsetParameter") ?? "offset"
            style = .offset(parameter: parameter, end: try Self.end(&reader, pages: false))
        case "page":
            let parameter = try reader.string("pageParameter") ?? "page"
            let first = try reader.int("firstPage", in: 0...1) ?? 1
            style = .pageNumber(parameter: parameter, first: first, end: try Self.end(&reader, pages: true))
        default:
            throw reader.error("style", "one of " + Self.styles.joined(separator: ", "))
        }
        try reader.finish()
    }

    /// Where a counted list ends: `totalPath`, `totalPagesPath` (page style), else `endWhen`.
    private static func end(_ reader: inout ConfigReader, pages: Bool) throws(ConfigError) -> PageEnd {
        let total = try reader.jsonPath("totalPath")
        let totalPages = pages ? try reader.jsonPath("totalPagesPath") : nil
        let endWhen = try reader.string("endWhen")
        let given = [total != nil, totalPages != nil, endWhen != nil].filter { $0 }.count
        guard given <= 1 else { throw reader.error(nil, "only one of totalPath, totalPagesPath and endWhen") }
        if let total { return .total(total) }
        if let totalPages { return .totalPages(totalPages) }
        switch endWhen ?? "short-page" {
        case "short-page": return .shortPage
        case "empty-page": return .emptyPage
        default: throw reader.error("endWhen", "short-page or empty-page")
        }
    }
}
