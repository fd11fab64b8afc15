import JSON
import RowstreamKit

extension ConfigFile {
    /// The top-level `pages`: `[{"name": NAME, "title": TEXT, "tables": [TABLE, ...]}]`, several tables on one page
    /// over one event stream (docs/CONFIG.md, "Pages"). Names are 1-64 of a-z, 0-9, `-` and `_`, each used once;
    /// 1-8 tables per page, each a table of this file, each once.
    static func pages(_ list: [JSONValue], file: String, tables: [TableConfig]) throws(ConfigError) -> [DashboardPage] {
        var pages: [DashboardPage] = []
        for (i, element) in list.enumerated() {
            var reader = try ConfigReader(element, file: file, path: "pages[\(i)]")
            try reader.rejectUnknown(["name", "title", "tables"])
            let name = try reader.requiredString("name")
            guard name.utf8.count <= 64,
                  name.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x5F }),
                  !pages.contains(where: { $0.name == name })
            else { throw reader.error("name", "1 to 64 of a-z, 0-9, - and _ (part of the page's URL), no other page's") }
            let title = try reader.string("title") ?? name
            guard let names = try reader.array("tables"), (1...DashboardPage.maxTables).contains(names.count) else {
                throw reader.error("tables", "an array of 1 to \(DashboardPage.maxTables) table names")
            }
            var shown: [String] = []
            for (j, value) in names.enumerated() {
                let path = reader.keyPath("tables") + "[\(j)]"
                guard case .string(let table) = value, tables.contains(where: { $0.spec.name == table }) else {
                    throw ConfigError(file: file, keyPath: path, expected: "the name of a table in this file")
                }
                guard !shown.contains(table) else {
                    throw ConfigError(file: file, keyPath: path, expected: "a table not already on this page")
                }
                shown.append(table)
            }
            try reader.finish()
            pages.append(DashboardPage(name: name, title: title, tables: shown))
        }
        return pages
    }
}
