import HTTPServerTesting
import RowstreamKit
import RowstreamTesting
import TestSupport
import Testing

/// Rows are rendered straight into their event's wire bytes: a line break in a cell becomes a new `data:` line
/// as it is written, so the stream's bytes are what the SSE encoder made of the rendered HTML before, on a table's
/// own stream and, tagged, on a page's stream.
@Suite("Rows framed as they are rendered")
struct RowFramingTests {
    static func notes() -> TableBinding {
        TableBinding(name: "notes", title: "Notes", columns: [TableColumn("Note")],
                     source: .array(["one\ntwo", "three\r\nfour"], batchSize: 10)) { note, row in
            row.key = String(note.prefix(3))
            row.text(note)
        }
    }

    static func server() throws -> RowstreamTestServer {
        try RowstreamTestServer([notes()], pages: [DashboardPage(name: "p", title: "P", tables: ["notes"])])
    }

    /// The stream's lines: every one is a field (`event:`, `id:`, `data:`, `retry:`), a comment or the blank line ending an
    /// event; returns the rows event's data as a client joins it.
    static func rowsData(_ wire: [UInt8], type: String) throws -> String {
        let text = String(decoding: wire, as: UTF8.self)
        var data: [String] = []
        var isRows = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { if isRows { return data.joined(separator: "\n") }; data = []; continue }
            #expect(["event: ", "id: ", "data: ", "retry: ", ":"].contains { line.hasPrefix($0) }, "a field: \(line)")
            if line == "event: \(type)" { isRows = true }
            if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
        }
        throw TestConnection.Failure(description: "no \(type) event in \(text)")
    }

    @Test("a table's own stream: the cell's line breaks are data lines, the rows as rendered")
    func ownStream() async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let stream = try await server.client.stream("/tables/notes/stream")
        let wire = try await stream.readToEnd()
        #expect(String(decoding: wire, as: UTF8.self).contains(
            "data: <tr data-key=\"one\" data-index=\"0\"><td class=\"rs-c rs-text\">one\ndata: two</td></tr>"))
        let data = try Self.rowsData(wire, type: "rows")
        #expect(data.contains("<td class=\"rs-c rs-text\">one\ntwo</td>"))
        #expect(data.contains("<td class=\"rs-c rs-text\">three\nfour</td>"))
        #expect(data.hasSuffix("<!--rs:last-->"))
    }

    @Test("a page's stream: the same data lines under the tagged type and the page's id")
    func pageStream() async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let own = try Self.rowsData(try await server.client.stream("/tables/notes/stream").readToEnd(), type: "rows")
        let wire = try await server.client.stream("/pages/p/stream").readToEnd()
        #expect(try Self.rowsData(wire, type: "notes:rows") == own)
        #expect(String(decoding: wire, as: UTF8.self).contains("event: notes:rows\nid: p1."))
    }
}
