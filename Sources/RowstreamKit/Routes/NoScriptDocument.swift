import Foundation
import HTTPServer
import JSON
import Tables

/// `GET /tables/{name}/html?after=TOKEN`: the table for browsers without JavaScript (docs/BROWSER.md).
///
/// One streamed HTML document of `batchesPerDocument` batches. Its first bytes hold the table's header
/// and a batch of skeleton rows; each batch is written the moment the upstream answers, after the skeleton it
/// replaces, which app.css then hides (`tbody.rs-wait:not(:last-of-type)`: no script, and no inline style, which the
/// CSP refuses; docs/SECURITY.md); the document ends with a plain link to
/// the next such document (`?after=` the resume token after the last row) or with the end of the list. The body is
/// close-delimited (the server's streaming bodies are), which browsers render as it arrives, like chunks.
///
/// Thread-safe: an immutable value. The loading task runs on the cooperative pool and awaits the upstream
/// (never blocks); the stream's close cancels it.
struct NoScriptDocument: Sendable {
    static let batchesPerDocument = 3
    let table: TableBinding
    /// Who asked: the rows are loaded for them (with the controls' choice and search in its query).
    let rows: RowRequest
    /// The signed-in header's markup (``SignedInHeader``; "" for none), made while the request is answered.
    var viewer = ""
    /// The controls' choice and search the rows are loaded with (checked), carried into every link.
    var query: [(name: String, value: String)] = []

    func respond(to request: HTTPRequest) throws(HTTPError) -> HTTPResult {
        var start = ResumeToken(table: table.name, offset: 0, position: .start)
        if let raw = request.queryValue("after"), !raw.isEmpty {
            guard let token = ResumeToken(decoding: raw, table: table.name) else {
                throw HTTPError(.badRequest, "unreadable position")
            }
            start = token
        }
        let document = self, first = start
        let headers: HTTPHeaders = [
            HTTPFieldName.contentType: "text/html; charset=utf-8", HTTPFieldName.cacheControl: "no-store",
            HTTPFieldName.xAccelBuffering: "no",
        ]
        return .now(HTTPResponse(status: .ok, headers: headers, body: .stream { writer in
            writer.write(document.opening())
            let task = Task { await document.stream(from: first, to: writer) }
            writer.onClose { task.cancel() }
        }))
    }

    /// Loads up to `batchesPerDocument` batches from `start`, writing each as it arrives, then the closing part.
    private func stream(from start: ResumeToken, to writer: StreamWriter) async {
        var position = start
        for batch in 0..<Self.batchesPerDocument {
            let cursor: TablePosition
            switch position.position {
            case .start: cursor = .first
            case .after(let next): cursor = .cursor(next)
            case .end, .finished: return writer.finishing(closing(nil, total: position.offset))
            }
            let loaded: (rows: [Row], next: TablePosition?)
            do throws(LoadFailure) {
                loaded = try await table.loadBatch(at: cursor, for: rows)
            } catch {
                return writer.finishing(failure(error.message, retry: position))
            }
            guard !Task.isCancelled else { return }
            var out = Array("<tbody>".utf8)
            table.renderer.appendRows(loaded.rows, startIndex: position.offset, to: &out)
            out += Array("</tbody>\n".utf8)
            let offset = position.offset + loaded.rows.count
            var next = ResumeToken.Position.end
            if let sealed = loaded.next?.sealed { next = .after(cursor: sealed) }
            position = ResumeToken(table: table.name, offset: offset, position: next)
            if loaded.next != nil, batch + 1 < Self.batchesPerDocument { out += skeleton(batch + 1) }
            writer.write(out)
        }
        writer.finishing(closing(position, total: position.offset))
    }

    /// The document up to the first skeleton batch: what the browser paints first.
    private func opening() -> [UInt8] {
        let title = HTMLEscaping.escaped(table.title)
        var out = Array("""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>\(title) · Rowstream</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml">
        <link rel="stylesheet" href="/app.css">
        <link rel="stylesheet" href="\(TableStyleSheet.path)">
        </head>
        <body class="rs-plain">
        <header class="rs-bar"><div class="rs-heading"><h1 class="rs-title">\(title)</h1></div>\(viewer)</header>
        <main class="rs-main">
        <div class="rs-box">

        """.utf8)
        out += searchForm()
        table.renderer.appendOpenTable(to: &out)
        out += skeleton(0)
        return out
    }

    private func skeleton(_ batch: Int) -> [UInt8] {
        Array("<tbody id=\"rs-wait-\(batch)\" class=\"rs-pending rs-wait\">".utf8)
            + table.renderer.skeletonRows(count: table.batchSize) + Array("</tbody>\n".utf8)
    }

    /// `</table>` and its box, then a link to the next document, or the end of the list when `next` is nil or at the end.
    private func closing(_ next: ResumeToken?, total: Int) -> [UInt8] {
        var text = "</table>\n</div>\n<nav class=\"rs-pager\">"
        if let next, case .after = next.position {
            let rows = table.batchSize * Self.batchesPerDocument
            // How much: "150 of 2500 rows shown" when the source reported the list's total (issue 28).
            if let whole = self.rows.total.latest {
                text += "<p id=\"rs-of\">\(next.offset) of \(whole) rows shown.</p>"
            }
            text += "<a id=\"rs-next\" rel=\"next\" href=\"\(href(next))\">Next \(rows) rows</a>"
        } else {
            text += "<p id=\"rs-end\">All \(total) rows shown - end of list.</p>"
        }
        return Array((text + "</nav>\n</main>\n</body>\n</html>\n").utf8)
    }

    private func failure(_ message: String, retry: ResumeToken) -> [UInt8] {
        Array(("</table>\n</div>\n<p class=\"rs-notice\" id=\"rs-error\">\(HTMLEscaping.escaped(message)) "
            + "<a href=\"\(href(retry))\">Try again</a></p>\n</main>\n</body>\n</html>\n").utf8)
    }

    private func href(_ token: ResumeToken) -> String {
        HTMLEscaping.escaped(table.documentPath + "/html?after=" + token.encoded() + choiceParameters)
    }

    /// `&p.NAME=VALUE` for each of the choice's parameters, encoded: the next document loads the same choice.
    private var choiceParameters: String {
        query.map { "&p." + Self.encoded($0.name) + "=" + Self.encoded($0.value) }.joined()
    }

    private static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }

    /// The search box (``TableSearch``) as a GET form to this document, holding the current text; works without
    /// script. The other controls' choice rides along in hidden fields. Empty without a search.
    private func searchForm() -> [UInt8] {
        guard let search = table.search else { return [] }
        var out = Array("<form class=\"rs-controls\" method=\"get\" action=\"".utf8)
        HTMLEscaping.appendEscaped(table.documentPath + "/html", to: &out)
        out += Array("\">".utf8)
        for (name, value) in query where name != search.parameter {
            out += Array("<input type=\"hidden\" name=\"".utf8)
            HTMLEscaping.appendEscaped("p." + name, to: &out)
            out += Array("\" value=\"".utf8)
            HTMLEscaping.appendEscaped(value, to: &out)
            out += Array("\">".utf8)
        }
        search.appendHTML(value: query.first { $0.name == search.parameter }?.value ?? "", to: &out)
        out += Array(" <button class=\"rs-button\" type=\"submit\">Search</button></form>\n".utf8)
        return out
    }
}

extension StreamWriter {
    /// Writes `bytes`, then ends the stream.
    fileprivate func finishing(_ bytes: [UInt8]) {
        write(bytes)
        finish()
    }
}
