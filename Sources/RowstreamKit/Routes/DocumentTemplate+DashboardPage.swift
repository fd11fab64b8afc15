import Foundation
import Tables

/// The page of a ``DashboardPage``: Public/page.html with one panel per table. Each panel holds the table's heading,
/// count, status, controls and Reload, and a scroll box with the table's server-rendered shell (header and
/// skeleton rows), so the first paint shows every table's shimmer. A table's element ids carry the suffix
/// `--NAME` (`rs-rows--orders`), unique on the page; the panel is `<section class="rs-panel" data-rs-table="NAME">`.
extension DocumentTemplate {
    static let dashboardPagesPlaceholder = "<!--rs:pages-->"
    static let panelsPlaceholder = "<!--rs:panels-->"
    static let streamPlaceholder = "<!--rs:stream-->"

    /// The ids of a table's shell that get the suffix on a page.
    private static let shellIDs = ["rs-table", "rs-rows", "rs-pending", "rs-footer", "rs-skeleton-row",
                                   "rs-skeleton-section"]

    /// Reads `directory/page.html` when `needed` (some page is served). Errors name the file.
    static func dashboardPageTemplate(directory: String, needed: Bool) throws -> String? {
        guard needed else { return nil }
        let path = (directory as NSString).appendingPathComponent("page.html")
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RowstreamError.templateUnreadable(path: path)
        }
        let text = String(decoding: data, as: UTF8.self)
        guard text.contains(panelsPlaceholder) else { throw RowstreamError.templatePlaceholder(path: path, panelsPlaceholder) }
        return text
    }

    /// The page `page` on `template` (page.html), as a response with a strong ETag.
    static func render(_ page: ResolvedDashboardPage, template: String) -> RenderedDocument {
        let panels = page.tables.map(panel).joined(separator: "\n")
        let body = template
            .replacingOccurrences(of: titlePlaceholder, with: HTMLEscaping.escaped(page.page.title))
            .replacingOccurrences(of: streamPlaceholder, with: HTMLEscaping.escaped(page.page.streamPath))
            .replacingOccurrences(of: panelsPlaceholder, with: panels)
        return RenderedDocument(body: Array(body.utf8))
    }

    /// One table's panel on a page.
    static func panel(_ table: TableBinding) -> String {
        let name = HTMLEscaping.escaped(table.name)
        let shell = table.renderer.renderShell(
            streamURL: table.streamPath, batchSize: table.batchSize, skeletonCount: table.batchSize
        )
        var html = String(decoding: shell, as: UTF8.self)
        for id in shellIDs {
            html = html.replacingOccurrences(of: "id=\"\(id)\"", with: "id=\"\(id)--\(name)\"")
        }
        var controls = Self.controls(table)
        controls = controls.replacingOccurrences(of: "id=\"rs-controls\"", with: "id=\"rs-controls--\(name)\"")
        return """
        <section class="rs-panel" data-rs-table="\(name)" aria-labelledby="rs-title--\(name)">
        <header class="rs-bar rs-panel-bar">
          <div class="rs-heading">
            <h2 class="rs-title" id="rs-title--\(name)"><a href="\(HTMLEscaping.escaped(table.documentPath))">\(HTMLEscaping.escaped(table.title))</a></h2>
            <div class="rs-meta"><span id="rs-count--\(name)"></span><p id="rs-status--\(name)" class="rs-status rs-visually-hidden" role="status" aria-live="polite"></p></div>
          </div>
          \(controls)
          \(exportLinks(table, suffix: "--" + name))
          <div class="rs-columns" id="rs-columns--\(name)"><button id="rs-columns-button--\(name)" class="rs-button" type="button">Columns</button></div>
          <button id="rs-reload--\(name)" class="rs-button" type="button">Reload</button>
        </header>
        <noscript><p class="rs-notice">Without JavaScript: the <a href="\(HTMLEscaping.escaped(table.documentPath))/html">plain HTML table</a>.</p></noscript>
        <a class="rs-skip" href="#rs-after--\(name)">Skip to end of table</a>
        <div class="rs-scroll" id="rs-scroll--\(name)">
        \(html)
        <div class="rs-sentinel" id="rs-sentinel--\(name)" aria-hidden="true"></div>
        </div>
        <p class="rs-after" id="rs-after--\(name)" tabindex="-1">End of \(HTMLEscaping.escaped(table.title))</p>
        </section>
        """
    }

    /// Links from a table's own page to the pages that show it (empty when none does).
    static func dashboardPageLinks(_ table: TableBinding, pages: [DashboardPage]) -> String {
        let showing = pages.filter { $0.tables.contains(table.name) }
        guard !showing.isEmpty else { return "" }
        let links = showing.map { page in
            "<a href=\"\(HTMLEscaping.escaped(page.documentPath))\">\(HTMLEscaping.escaped(page.title))</a>"
        }
        return "<nav class=\"rs-pages\" aria-label=\"Pages\">Also on: " + links.joined(separator: ", ") + "</nav>"
    }
}

/// The served pages (``DashboardPage``), rendered once at start-up. Immutable.
struct DashboardPageSet: Sendable {
    let order: [String]
    let pages: [String: ResolvedDashboardPage]
    let rendered: [String: RenderedDocument]

    init(_ resolved: [ResolvedDashboardPage], template: String?) {
        order = resolved.map(\.name)
        pages = Dictionary(uniqueKeysWithValues: resolved.map { ($0.name, $0) })
        rendered = template.map { template in
            Dictionary(uniqueKeysWithValues: resolved.map { ($0.name, DocumentTemplate.render($0, template: template)) })
        } ?? [:]
    }
}
