import HTTPServer
import Tables

extension ServerRoutes {
    /// `GET /tables.css`: the column widths and card sizes (``TableStyleSheet``) of the tables the viewer may see
    /// (``Viewer/current``; docs/SECURITY.md, "Allow lists"), which the pages link instead of inline styles (the CSP
    /// refuses those). A rule names its table, so a viewer kept from a table must not get its rules. Each table's
    /// rules are made once, here; an answer joins those of the visible tables (bytes copied, nothing rendered).
    /// `Cache-Control: private, no-cache` and `Vary: Cookie, Authorization`: no shared cache hands one viewer's
    /// sheet to another, and a browser asks again when its viewer changes.
    func addStyleRoute(to router: inout RouterBuilder) {
        let header = Array(TableStyleSheet.header.utf8)
        let rules: [(table: String, bytes: [UInt8])] = order.compactMap { name in
            tables[name].map { (name, Array(TableStyleSheet.rules($0.renderer.spec).utf8)) }
        }
        router.get(TableStyleSheet.path) { _, _ in
            var body = header
            for rule in rules where configuration.access.admits(table: rule.table) { body += rule.bytes }
            return .now(HTTPResponse(status: .ok, headers: [HTTPFieldName.contentType: "text/css; charset=utf-8",
                                                            HTTPFieldName.cacheControl: "private, no-cache",
                                                            HTTPFieldName.vary: "Cookie, Authorization"],
                                     body: .bytes(body)))
        }
    }
}
