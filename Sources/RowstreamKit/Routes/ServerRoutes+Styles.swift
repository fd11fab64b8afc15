import HTTPServer
import Tables

extension ServerRoutes {
    /// `GET /tables.css`: the tables' column widths and card sizes (``TableStyleSheet``), which the pages link
    /// instead of inline styles (the CSP refuses those; docs/SECURITY.md).
    func addStyleRoute(to router: inout RouterBuilder) {
        let css = TableStyleSheet.css(order.compactMap { tables[$0]?.renderer.spec })
        let response = HTTPResponse(status: .ok, headers: [HTTPFieldName.contentType: "text/css; charset=utf-8",
                                                           HTTPFieldName.cacheControl: "no-cache"],
                                    body: .bytes(Array(css.utf8)))
        router.get(TableStyleSheet.path) { _, _ in .now(response) }
    }
}
