import JSON

/// A page showing several tables at once, all streamed over one connection: `GET /pages/NAME` serves it (every
/// table's shell and skeleton rows in the first paint) and `GET /pages/NAME/stream` is its one event stream, in
/// which every event names its table (docs/PROTOCOL.md, "Pages"). Each table keeps its own session, demand,
/// reload, controls and completion.
///
/// ```swift
/// let overview = DashboardPage(name: "overview", title: "Overview", tables: ["orders", "customers"])
/// let server = try RowstreamServer.start([orders, customers], pages: [overview])
/// ```
///
/// Thread-safe: an immutable value, `Sendable`.
public struct DashboardPage: Sendable, Hashable {
    /// The page's name, used in its URL: 1-64 letters, digits, `-` and `_`.
    public var name: String
    /// The page's heading and document title.
    public var title: String
    /// The names of the tables shown, top to bottom: 1-8 tables served by the same server, each once.
    public var tables: [String]

    public init(name: String, title: String, tables: [String]) {
        self.name = name
        self.title = title
        self.tables = tables
    }

    /// The most tables one page may show.
    public static let maxTables = 8

    /// The path of the page's HTML document.
    var documentPath: String { "/pages/\(name)" }
    var streamPath: String { "/pages/\(name)/stream" }
}

/// A ``DashboardPage`` with its tables resolved: built once at start-up, immutable afterwards.
struct ResolvedDashboardPage: Sendable {
    let page: DashboardPage
    let tables: [TableBinding]

    var name: String { page.name }

    /// The page's entry in `GET /api/pages` (and the `pages` member of `GET /api/tables`).
    func listing() -> JSONValue {
        [
            "name": .string(page.name), "title": .string(page.title), "page": .string(page.documentPath),
            "stream": .string(page.streamPath), "tables": .array(page.tables.map(JSONValue.string)),
        ]
    }
}

extension DashboardPage {
    /// Checks `pages` against the served tables; the errors name the page and what is wrong.
    static func resolve(_ pages: [DashboardPage], tables: [String: TableBinding]) throws -> [ResolvedDashboardPage] {
        var seen: Set<String> = []
        return try pages.map { page in
            guard RowstreamServer.isValidName(page.name) else {
                throw RowstreamError.pageName(page.name)
            }
            guard seen.insert(page.name).inserted else { throw RowstreamError.duplicatePage(page.name) }
            guard (1...maxTables).contains(page.tables.count) else {
                throw RowstreamError.pageTableCount(page: page.name, maximum: maxTables, page.tables.count)
            }
            guard Set(page.tables).count == page.tables.count else {
                throw RowstreamError.pageListsTableTwice(page.name)
            }
            let bindings = try page.tables.map { name in
                guard let table = tables[name] else { throw RowstreamError.pageUnknownTable(page: page.name, name) }
                return table
            }
            return ResolvedDashboardPage(page: page, tables: bindings)
        }
    }
}
