import Foundation
import HTTPServer
import Tables

/// The page a person opens: Public/index.html with the table's title and server-rendered shell (header and
/// skeleton rows) filled in, so the very first paint already shows shimmer rows shaped like the real ones.
/// Rendered once per table at start-up; immutable afterwards. The templates load their script themselves: one
/// `<script type="module" src="/app.js">`, which imports the rest (docs/BROWSER.md, "The page's modules").
struct DocumentTemplate: Sendable {
    static let titlePlaceholder = "<!--rs:title-->"
    static let tablePlaceholder = "<!--rs:table-->"

    private let template: String

    /// Reads `directory/index.html`. Errors name the file.
    init(directory: String) throws {
        let path = (directory as NSString).appendingPathComponent("index.html")
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RowstreamError.templateUnreadable(path: path)
        }
        let text = String(decoding: data, as: UTF8.self)
        guard text.contains(Self.tablePlaceholder) else {
            throw RowstreamError.templatePlaceholder(path: path, Self.tablePlaceholder)
        }
        template = text
    }

    /// The HTML document of `table`, as a response with a strong ETag; it links the dashboard `pages` that show the table.
    func render(_ table: TableBinding, pages: [DashboardPage] = []) -> RenderedDocument {
        let shell = table.renderer.renderShell(
            streamURL: table.streamPath, batchSize: table.batchSize, skeletonCount: table.batchSize
        )
        let document = template
            .replacingOccurrences(of: Self.titlePlaceholder, with: HTMLEscaping.escaped(table.title))
            .replacingOccurrences(of: Self.tablePlaceholder, with: String(decoding: shell, as: UTF8.self))
            .replacingOccurrences(of: "<!--rs:plain-->", with: table.documentPath + "/html")  // the no-script document
            .replacingOccurrences(of: "<!--rs:controls-->", with: Self.controls(table))
            .replacingOccurrences(of: Self.exportPlaceholder, with: Self.exportLinks(table))
            .replacingOccurrences(of: Self.dashboardPagesPlaceholder, with: Self.dashboardPageLinks(table, pages: pages))
        return RenderedDocument(body: Array(document.utf8))
    }
}

extension DocumentTemplate {
    /// The search box (``TableSearch``) and the sort and filter controls (``TableControl``) as a form of `<select>`s
    /// (empty without either).
    static func controls(_ table: TableBinding) -> String {
        guard !table.controls.isEmpty || table.search != nil else { return "" }
        var out = Array("<form class=\"rs-controls\" id=\"rs-controls\">".utf8)
        table.search?.appendHTML(value: "", to: &out)
        for control in table.controls { control.appendHTML(to: &out) }
        out += Array("</form>".utf8)
        return String(decoding: out, as: UTF8.self)
    }
}

extension DocumentTemplate {
    static let exportPlaceholder = "<!--rs:export-->"

    /// "Download all rows": a link per export format (``ExportRoute``), which the page's export.js follows itself
    /// to show the rows exported (and the controls' choice); without script, a plain download. Ids end in `suffix`.
    static func exportLinks(_ table: TableBinding, suffix: String = "") -> String {
        let links = ExportFormat.allCases.map { format in
            let label = format == .csv ? "CSV" : "NDJSON"
            return "<a class=\"rs-button rs-export-link\" id=\"rs-export-\(format.rawValue)\(suffix)\" data-rs-export=\"\(format.rawValue)\" "
                + "href=\"\(HTMLEscaping.escaped(table.exportPath(format)))\" download>\(label)</a>"
        }
        return "<div class=\"rs-export\" id=\"rs-export\(suffix)\" data-state=\"idle\" role=\"group\" aria-label=\"Download all rows\">"
            + "<span class=\"rs-export-label\">Download all rows</span>" + links.joined()
            + "<span class=\"rs-export-status\" id=\"rs-export-status\(suffix)\" role=\"status\" aria-live=\"polite\"></span></div>"
    }
}

/// A rendered page and its validator. A template's `<!--rs:viewer-->` (``SignedInHeader``) is the one part filled in
/// per request: the body is kept as the bytes before and after it.
struct RenderedDocument: Sendable {
    let body: [UInt8]
    let etag: String
    /// Where ``SignedInHeader/placeholder`` was in `body` (it is removed); nil: the template has none.
    private let viewerAt: Int?

    init(body: [UInt8]) {
        let marker = Array(SignedInHeader.placeholder.utf8)
        if let start = body.indices.first(where: { body[$0...].starts(with: marker) }) {
            viewerAt = start
            self.body = Array(body[..<start]) + body[(start + marker.count)...]
        } else {
            viewerAt = nil
            self.body = body
        }
        etag = "\"" + String(FNV1a.hash(self.body), radix: 16) + "\""
    }

    /// The document with `viewer`'s markup ("": none) in its header; its ETag names both, and a document that names
    /// its viewer is `private` (no shared cache may give it to someone else).
    func response(to request: HTTPRequest, viewer: String = "") -> HTTPResponse {
        let named = !viewer.isEmpty && viewerAt != nil
        let tag = named ? String(etag.dropLast()) + "-" + String(FNV1a.hash(Array(viewer.utf8)), radix: 16) + "\"" : etag
        var headers: HTTPHeaders = [HTTPFieldName.eTag: tag, HTTPFieldName.cacheControl: named ? "private, no-cache" : "no-cache"]
        if let match = request.headers[HTTPFieldName.ifNoneMatch], match.split(separator: ",").contains(where: {
            $0.trimmingCharacters(in: .whitespaces) == tag || $0.trimmingCharacters(in: .whitespaces) == "*"
        }) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        headers.add(name: HTTPFieldName.contentType, value: "text/html; charset=utf-8")
        guard named, let at = viewerAt else { return HTTPResponse(status: .ok, headers: headers, body: .bytes(body)) }
        return HTTPResponse(status: .ok, headers: headers, body: .bytes(Array(body[..<at]) + Array(viewer.utf8) + body[at...]))
    }
}

/// 64-bit FNV-1a: a fast content hash for ETags (not for security).
enum FNV1a {
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}
