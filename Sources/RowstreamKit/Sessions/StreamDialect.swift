import HTTPServer
import Tables

/// The wire format of a table's stream, chosen once per stream by `?dialect=` (docs/DIALECTS.md): the v1 protocol
/// (no parameter), or the events that htmx 2's SSE extension, Hotwire Turbo's stream sources or Datastar swap into a
/// page by themselves. Only the events that change the page differ (`session`, `rows`, `reset` and the live
/// `insert`, `update`, `remove`); their `id:`s, and every other event, are the v1 ones, so resume (`Last-Event-ID`)
/// works as in v1. Rows are the v1 renderer's, every value escaped the same way, each `<tr>` with the id
/// ``RowElementID/row(table:key:)``.
///
/// A pure value: safe from any thread.
enum StreamDialect: String, Sendable, Hashable, CaseIterable {
    case htmx
    case turbo
    case datastar

    /// The dialect `?dialect=` names (nil: none given, the v1 stream); an unknown name is a 400.
    init?(parameter: String?) throws(HTTPError) {
        guard let parameter, !parameter.isEmpty else { return nil }
        guard let dialect = StreamDialect(rawValue: parameter) else {
            let known = Self.allCases.map(\.rawValue).joined(separator: ", ")
            throw HTTPError(.badRequest, "unknown dialect: dialect must be one of \(known), or absent for the v1 stream")
        }
        self = dialect
    }

    /// Whether a finished list's stream stays open (and a reconnect with its `complete` id gets `session` and
    /// `complete` again instead of `204`), as a live table's does: htmx's SSE extension replaces a closed
    /// `EventSource` with a new one that has no `Last-Event-ID`, so a `204` would start the list over.
    var staysOpen: Bool { self == .htmx }

    /// One element per dialect, in its markup, that asks for the next batch once it is revealed, or an inert
    /// one (`next` nil) after the last batch; its id is ``RowElementID/more(table:)``.
    func sentinel(table: String, next: String?) -> String {
        let id = RowElementID.more(table: table)
        guard let next else { return "<tr id=\"\(id)\" hidden></tr>" }
        let url = HTMLEscaping.escaped(next)
        switch self {
        case .htmx:
            return "<tr id=\"\(id)\" hx-post=\"\(url)\" hx-trigger=\"revealed\" hx-swap=\"none\"><td></td></tr>"
        case .turbo:
            // A lazy frame loads its `src` (a GET) when it scrolls into view: Turbo's own idiom for "more".
            return "<tr id=\"\(id)\"><td><turbo-frame id=\"\(id)-frame\" loading=\"lazy\" src=\"\(url)\"></turbo-frame></td></tr>"
        case .datastar:
            return "<tr id=\"\(id)\" data-on-intersect__once=\"@post('\(url)')\"><td></td></tr>"
        }
    }

    /// The `session` event: the sentinel for this session's `next` (a reconnect's new session needs a new one), or
    /// an inert one (nil: a fresh session loads its first batch by itself, and that batch brings the sentinel: one
    /// revealed now would ask for a second batch before anyone scrolled).
    func session(table: String, next: String?) -> FramedSSEEvent {
        let sentinel = sentinel(table: table, next: next)
        return patch(event: "session", id: nil) { data in
            switch self {
            case .htmx: data += Self.oob(sentinel, "true")
            case .turbo: data += Self.turboStream("replace", RowElementID.more(table: table), sentinel)
            case .datastar: data += Self.datastarPatch(nil, Self.datastarSentinelMode, sentinel)
            }
        }
    }

    /// One batch: its rows appended to the body, and a fresh sentinel (nil `next`: the last batch, an inert one).
    func rows(table: String, renderer: TableRenderer, rows: [Row], startIndex: Int, next: String?, id: String)
        -> FramedSSEEvent {
        let body = RowElementID.body(table: table)
        let sentinel = sentinel(table: table, next: next)
        let renderer = renderer.withRowIDs(table: table)
        return patch(event: "rows", id: id) { data in
            switch self {
            case .htmx:
                data += Self.oob(sentinel, "true")
                renderer.appendRows(rows, startIndex: startIndex, to: &data, lineBreak: SSEEvent.dataLineBreak)
            case .turbo:
                data += Array("<turbo-stream action=\"append\" target=\"\(body)\"><template>".utf8)
                renderer.appendRows(rows, startIndex: startIndex, to: &data, lineBreak: SSEEvent.dataLineBreak)
                data += Array("</template></turbo-stream>".utf8)
                data += Self.turboStream("replace", RowElementID.more(table: table), sentinel)
            case .datastar:
                data += Array("selector #\(body)\ndata: mode append\ndata: elements ".utf8)
                renderer.appendRows(rows, startIndex: startIndex, to: &data, lineBreak: Self.datastarLineBreak)
                // Each patch is its own event: the sentinel follows as a second one.
                data += Array("\n\nevent: datastar-patch-elements\ndata: ".utf8)
                data += Self.datastarPatch(nil, Self.datastarSentinelMode, sentinel)
            }
        }
    }

    /// A failed batch: the v1 `error` event (`failed`; not for htmx), then a patch that puts in the sentinel's place a row with
    /// the message and, with a `next` (a retryable failure), a Retry in the dialect's idiom (htmx: a button that
    /// POSTs `next`; Turbo: a link in a frame, which Turbo GETs as a frame request; Datastar: a button that
    /// `@post`s it). The batch that Retry loads brings a new sentinel in its place. htmx's patch is a `retry` event.
    func failure(_ failed: SSEEvent, table: String, columns: Int, message: String, next: String?) -> FramedSSEEvent {
        let id = RowElementID.more(table: table)
        var retry = ""
        if let next {
            let url = HTMLEscaping.escaped(next)
            switch self {
            case .htmx: retry = " <button type=\"button\" hx-post=\"\(url)\" hx-swap=\"none\">Retry</button>"
            case .turbo: retry = " <turbo-frame id=\"\(id)-frame\"><a href=\"\(url)\">Retry</a></turbo-frame>"
            case .datastar: retry = " <button type=\"button\" data-on:click=\"@post('\(url)')\">Retry</button>"
            }
        }
        let row = "<tr id=\"\(id)\"><td colspan=\"\(max(columns, 1))\" role=\"alert\">"
            + HTMLEscaping.escaped(message) + retry + "</td></tr>"
        let patch = FramedSSEEvent(event: self == .htmx ? "retry" : eventName("error"), id: nil) { data in
            switch self {
            case .htmx: data += Self.oob(row, "true")
            case .turbo: data += Self.turboStream("replace", id, row)
            case .datastar: data += Self.datastarPatch(nil, Self.datastarSentinelMode, row)
            }
        }
        // htmx's SSE extension takes an event named `error` for a failed connection: only the patch.
        if self == .htmx { return patch }
        // One value for the session's writer: both events back to back (the JSON data is a single line).
        return FramedSSEEvent(event: "error", id: nil) { data in
            data += failed.dataBytes
            data += Array("\n\n".utf8)
            data += patch.bytes.dropLast(2)
        }
    }

    /// `reset`: the rows shown so far are cleared (the first batch follows).
    func reset(table: String, id: String) -> FramedSSEEvent {
        let body = RowElementID.body(table: table)
        return patch(event: "reset", id: id) { data in
            switch self {
            case .htmx: data += Array("<tbody id=\"\(body)\" hx-swap-oob=\"innerHTML\"></tbody>".utf8)
            case .turbo: data += Self.turboStream("update", body, "")
            case .datastar: data += Self.datastarPatch(nil, "outer", "<tbody id=\"\(body)\"></tbody>")
            }
        }
    }

    /// An event that changes the page: htmx's under its v1 name (`sse-swap`); Turbo's unnamed (a stream source
    /// reads `message` events); Datastar's `datastar-patch-elements`. The data is written as SSE `data:` lines.
    private func patch(event: String, id: String?, writeData: (inout [UInt8]) -> Void)
        -> FramedSSEEvent {
        FramedSSEEvent(event: eventName(event), id: id, writeData: writeData)
    }

    func eventName(_ v1: String) -> String? {
        switch self {
        case .htmx: v1
        case .turbo: nil
        case .datastar: "datastar-patch-elements"
        }
    }

    /// How Datastar puts a sentinel (or the failure row) in the sentinel's place: `replace`, a new element, not
    /// `outer`, which morphs the old one into it. A batch's sentinel is the same markup as the one before it (same
    /// session, same `next`), so a morph would change nothing, and `data-on-intersect__once`, spent on the element
    /// it fired for, would never ask again (Datastar 1.0.1 stopped after the second batch). A new element is armed.
    static let datastarSentinelMode = "replace"

    /// A line break inside Datastar's elements: the `data:` line ends and the next `elements` line begins.
    static let datastarLineBreak: StaticString = "\ndata: elements "

    /// `html` (one element, no line breaks) with `hx-swap-oob="VALUE"` on it.
    static func oob(_ html: String, _ value: String) -> [UInt8] {
        Array(html.utf8).withAttribute(" hx-swap-oob=\"\(value)\"")
    }

    static func turboStream(_ action: String, _ target: String, _ template: String) -> [UInt8] {
        Array("<turbo-stream action=\"\(action)\" target=\"\(target)\"><template>\(template)</template></turbo-stream>".utf8)
    }

    /// A Datastar patch's data lines after the first `data: ` (`selector` nil: by the elements' own ids).
    static func datastarPatch(_ selector: String?, _ mode: String, _ elements: String) -> [UInt8] {
        var lines = selector.map { "selector \($0)\ndata: " } ?? ""
        lines += "mode \(mode)\ndata: elements \(elements)"
        return Array(lines.utf8)
    }
}

extension Array where Element == UInt8 {
    /// This element's markup (starting `<tag`) with `attribute` (` name="value"`) added after the tag's name.
    func withAttribute(_ attribute: String) -> [UInt8] {
        guard let end = firstIndex(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ">") }) else { return self }
        return Array(self[..<end]) + Array(attribute.utf8) + Array(self[end...])
    }
}
