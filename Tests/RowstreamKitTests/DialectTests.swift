import HTTPServerTesting
import RowstreamKit
import RowstreamTesting
import Tables
import TestSupport
import Testing

/// The stream in htmx's, Turbo's and Datastar's wire formats (`?dialect=`, docs/DIALECTS.md): the same rows,
/// escaped the same way, each `<tr>` with an id from its key; the same resume tokens.
@Suite("Stream dialects")
struct DialectTests {
    /// Keys and cells a hostile upstream could send: markup, quotes, a line break, non-ASCII.
    static let items = ["k\"<1>&'", "two\nlines <script>x</script>", "ü 3", "4", "5"]

    static func hostile() -> TableBinding {
        TableBinding(name: "hostile", title: "Hostile", columns: [TableColumn("Text")],
                     source: .array(items, batchSize: 2)) { item, row in
            row.key = item
            row.text(item)
        }
    }

    /// The `next` URL a dialect's sentinel carries (the session's own).
    static func nextURL(_ data: String, table: String = "hostile") throws -> String {
        let start = try #require(data.range(of: "/tables/\(table)/sessions/"))
        let end = try #require(data[start.upperBound...].range(of: "/next"))
        return String(data[start.lowerBound..<end.upperBound])
    }

    /// The next event that holds rows (Turbo's `session` is a `message` too).
    static func nextRows(_ stream: InProcessStream, _ dialect: String) async throws -> ReceivedEvent {
        for _ in 0..<20 {
            let event = try #require(try await stream.nextEvent())
            if event.event == type(dialect, "rows"), event.data.contains("data-index") { return event }
        }
        throw TestConnection.Failure(description: "no rows in 20 events")
    }

    /// The event type a dialect's page-changing events carry.
    static func type(_ dialect: String, _ v1: String) -> String {
        switch dialect {
        case "turbo": "message"
        case "datastar": "datastar-patch-elements"
        default: v1
        }
    }

    @Test("an unknown dialect is a 400 that names the known ones; no dialect is the v1 stream, without ids")
    func unknownDialect() async throws {
        let server = try RowstreamTestServer([Self.hostile()])
        defer { server.shutdown() }
        let answer = await server.client.get("/tables/hostile/stream?dialect=alpine")
        #expect(answer.status == .badRequest)
        #expect(answer.stream == nil)
        #expect(answer.text.contains("dialect must be one of htmx, turbo, datastar"))
        let v1 = try await server.client.stream("/tables/hostile/stream")
        defer { v1.close() }
        let rows = try await v1.next(named: "rows").event.data
        #expect(rows.hasPrefix("<tr data-key=\"k&quot;&lt;1&gt;&amp;&#39;\" data-index=\"0\">"))
        #expect(!rows.contains(" id=\""))
    }

    @Test("row ids: letters and digits kept, every other byte _HH; different keys, different ids", arguments: [
        ("k\"<1>&'", "rs-t-k-k_22_3C1_3E_26_27"), ("ü 3", "rs-t-k-_C3_BC_203"), ("a-b", "rs-t-k-a_2Db"),
    ])
    func rowIDs(key: String, id: String) {
        #expect(RowElementID.row(table: "t", key: key) == id)
        #expect(RowElementID.row(table: "t", key: "a_2Db") != RowElementID.row(table: "t", key: "a-b"))
        #expect(RowElementID.body(table: "t") == "rs-t-body" && RowElementID.more(table: "t") == "rs-t-more")
    }

    @Test("each dialect: escaped rows with ids, multi-line cells as data lines, a sentinel for next; resume exactly once",
          arguments: ["htmx", "turbo", "datastar"])
    func dialectStream(dialect: String) async throws {
        let server = try RowstreamTestServer([Self.hostile()])
        defer { server.shutdown() }
        let path = "/tables/hostile/stream?dialect=\(dialect)"
        let stream = try await server.client.stream(path)
        let session = try await stream.next(named: Self.type(dialect, "session")).event
        #expect(session.id == nil)
        #expect(!session.data.contains("/next") && session.data.contains(" hidden>"),
                "a fresh session loads its first batch by itself: its sentinel asks for nothing")
        let rows = try await Self.nextRows(stream, dialect)
        // Datastar: the new sentinel is its own patch, right after the rows.
        let sentinel = dialect == "datastar" ? try #require(try await stream.nextEvent()).data : rows.data
        stream.close()
        let id = try #require(rows.id, "the rows carry the v1 resume token")
        #expect(rows.data.contains("<tr id=\"rs-hostile-k-k_22_3C1_3E_26_27\" data-key=\"k&quot;&lt;1&gt;&amp;&#39;\" data-index=\"0\">"))
        #expect(rows.data.contains("id=\"rs-hostile-k-two_0Alines_20_3Cscript_3Ex_3C_2Fscript_3E\""))
        #expect(rows.data.contains("two\(dialect == "datastar" ? "\nelements " : "\n")lines &lt;script&gt;x&lt;/script&gt;"))
        #expect(!rows.data.contains("<script"), "every byte escaped")
        let firstNext = try Self.nextURL(sentinel)
        switch dialect {
        case "htmx":
            #expect(sentinel.hasPrefix("<tr hx-swap-oob=\"true\" id=\"rs-hostile-more\" hx-post=\"/tables/hostile/sessions/"))
            #expect(sentinel.contains("hx-trigger=\"revealed\""))
        case "turbo":
            #expect(rows.data.hasPrefix("<turbo-stream action=\"append\" target=\"rs-hostile-body\"><template><tr id="))
            #expect(rows.data.contains("<turbo-frame id=\"rs-hostile-more-frame\" loading=\"lazy\" src=\""))
        default:
            #expect(rows.data.hasPrefix("selector #rs-hostile-body\nmode append\nelements <tr id="))
            // A new element, not a morph: the batch's sentinel is the same markup as the one before (same session,
            // same next), and a morph would leave the spent once-only trigger as it was (docs/DIALECTS.md).
            #expect(sentinel.hasPrefix("mode replace\nelements <tr id=\"rs-hostile-more\" data-on-intersect__once=\"@post('"))
            #expect(session.data.hasPrefix("mode replace\nelements <tr id=\"rs-hostile-more\" hidden>"))
        }

        // Resume: the next batch after the delivered one, indexes 2 and 3, in the same dialect.
        let resumed = try await server.client.stream(path, lastEventID: id)
        defer { resumed.close() }
        let again = try await resumed.next(named: Self.type(dialect, "session")).event
        let next = try Self.nextURL(again.data)
        #expect(next != firstNext, "a reconnect is a new session, and waits for demand: its sentinel asks at once")
        #expect(await server.client.post(next).status == .accepted)
        let more = try await Self.nextRows(resumed, dialect)
        #expect(rowIndexes(more.data) == [2, 3])
        #expect(rowKeys(more.data) == ["ü 3", "4"])
    }

    @Test("Turbo's lazy frame GETs next: with a Turbo-Frame header it loads the next batch; without, a 400 that loads nothing")
    func turboFrameNext() async throws {
        let server = try RowstreamTestServer([Self.hostile()])
        defer { server.shutdown() }
        let stream = try await server.client.stream("/tables/hostile/stream?dialect=turbo")
        defer { stream.close() }
        let next = try Self.nextURL(try await Self.nextRows(stream, "turbo").data)
        let plain = await server.client.get(next)
        #expect(plain.status == .badRequest && plain.text.contains("Turbo-Frame"))
        let framed = await server.client.get(next, headers: ["Turbo-Frame": "rs-hostile-more-frame\"<x>"])
        #expect(framed.status == .ok)
        #expect(framed.text == "<turbo-frame id=\"rs-hostile-more-frame&quot;&lt;x&gt;\"></turbo-frame>")
        let more = try await Self.nextRows(stream, "turbo")
        #expect(rowIndexes(more.data) == [2, 3], "one batch, after the first: the 400 loaded nothing")
    }

    @Test("an unreadable Last-Event-ID: each dialect's reset empties the body, with the v1 start token",
          arguments: [("htmx", "<tbody id=\"rs-hostile-body\" hx-swap-oob=\"innerHTML\"></tbody>"),
                      ("turbo", "<turbo-stream action=\"update\" target=\"rs-hostile-body\"><template></template></turbo-stream>"),
                      ("datastar", "mode outer\nelements <tbody id=\"rs-hostile-body\"></tbody>")])
    func reset(dialect: String, data: String) async throws {
        let server = try RowstreamTestServer([Self.hostile()])
        defer { server.shutdown() }
        let stream = try await server.client.stream("/tables/hostile/stream?dialect=\(dialect)", lastEventID: "garbage")
        defer { stream.close() }
        var reset: ReceivedEvent?
        for _ in 0..<5 where reset == nil {
            let event = try #require(try await stream.nextEvent())
            if event.id != nil { reset = event }
        }
        #expect(reset?.event == Self.type(dialect, "reset"))
        #expect(reset?.data == data)
        #expect(rowIndexes(try await Self.nextRows(stream, dialect).data) == [0, 1], "the first batch follows")
    }

    @Test("a failed batch: the v1 error, then the failure in the sentinel's place with Retry (its next); Retry loads it",
          arguments: ["htmx", "turbo", "datastar"])
    func failureWithRetry(dialect: String) async throws {
        let source = secondBatchFailingOnce("Busy <now> & \"then\"")
        let server = try RowstreamTestServer([peopleTable(source)])
        defer { server.shutdown() }
        let stream = try await server.client.stream("/tables/people/stream?dialect=\(dialect)")
        defer { stream.close() }
        let first = try await Self.nextRows(stream, dialect)
        let sentinel = dialect == "datastar" ? try #require(try await stream.nextEvent()).data : first.data
        let nextURL = try Self.nextURL(sentinel, table: "people")
        #expect(await server.client.post(nextURL).status == .accepted)
        if dialect != "htmx" {   // htmx's extension takes an `error` event for a failed connection
            let error = try await stream.next(named: "error").event
            #expect(try object(error.data)["message"] as? String == "Busy <now> & \"then\"")
        }
        let patch = try await stream.next(named: dialect == "htmx" ? "retry" : Self.type(dialect, "error")).event
        #expect(patch.event == (dialect == "htmx" ? "retry" : Self.type(dialect, "error")))
        #expect(patch.data.contains("role=\"alert\">Busy &lt;now&gt; &amp; &quot;then&quot; "))
        #expect(patch.data.contains("id=\"rs-people-more\""))
        let retry = try Self.nextURL(patch.data, table: "people")
        #expect(retry == nextURL, "Retry is the session's next")
        switch dialect {
        case "htmx": #expect(patch.data.contains("<button type=\"button\" hx-post=\"\(retry)\" hx-swap=\"none\">Retry</button>"))
        case "turbo": #expect(patch.data.contains("<turbo-frame id=\"rs-people-more-frame\"><a href=\"\(retry)\">Retry</a></turbo-frame>"))
        default:
            #expect(patch.data.hasPrefix("mode replace\nelements <tr id=\"rs-people-more\">"))
            // Datastar 1.0's event attribute is `data-on:EVENT` (`data-on-click` is no plugin there: a dead button).
            #expect(patch.data.contains("<button type=\"button\" data-on:click=\"@post('\(retry)')\">Retry</button>"))
        }
        #expect(await server.client.post(retry).status == .accepted)
        #expect(rowIndexes(try await Self.nextRows(stream, dialect).data) == Array(10..<20))
    }

    @Test("a finished list: htmx's stream stays open and its reconnect gets session and complete (not 204); others 204",
          arguments: ["htmx", "turbo", "datastar"])
    func finished(dialect: String) async throws {
        let server = try RowstreamTestServer([Self.hostile()])
        defer { server.shutdown() }
        let stream = try await server.client.stream("/tables/hostile/stream?dialect=\(dialect)")
        var id: String?
        for _ in 0..<3 {
            let rows = try await Self.nextRows(stream, dialect)
            id = rows.id
            let sentinel = dialect == "datastar" ? try #require(try await stream.nextEvent()).data : rows.data
            if sentinel.contains("/next") { _ = await server.client.post(try Self.nextURL(sentinel)) }
        }
        let complete = try await stream.next(named: "complete").event
        stream.close()
        #expect(id != nil && complete.id != nil)
        let again = await server.client.get("/tables/hostile/stream?dialect=\(dialect)",
                                            headers: ["Last-Event-ID": try #require(complete.id)])
        defer { again.stream?.close() }
        if dialect == "htmx" {
            let reopened = try #require(again.stream)
            _ = try await reopened.next(named: "session")
            #expect(try await reopened.next(named: "complete").event.data == "{\"total\":5}")
        } else {
            #expect(again.status == .noContent)
        }
    }

    @Test("datastar: every data line of a batch is a selector, mode or elements line; a cell's line break too")
    func datastarLines() async throws {
        let server = try RowstreamTestServer([Self.hostile()])
        defer { server.shutdown() }
        let stream = try await server.client.stream("/tables/hostile/stream?dialect=datastar")
        defer { stream.close() }
        var seen: [String] = []
        var isPatch = false
        while !seen.contains(where: { $0.hasPrefix("data: elements lines") }), let line = try await stream.nextLine() {
            if line.hasPrefix("event: ") { isPatch = line == "event: datastar-patch-elements" }
            if line.isEmpty { isPatch = false }
            if isPatch, line.hasPrefix("data: ") { seen.append(line) }
        }
        #expect(seen.allSatisfy { line in ["data: selector ", "data: mode ", "data: elements "].contains { line.hasPrefix($0) } })
        #expect(seen.contains("data: mode append") && seen.contains("data: selector #rs-hostile-body"))
        #expect(seen.last?.hasPrefix("data: elements lines &lt;script&gt;") == true)
    }

    @Test("live changes in each dialect: remove, update and insert by row id", arguments: ["htmx", "turbo", "datastar"])
    func liveChanges(dialect: String) async throws {
        let store = LiveTests.Store()
        let server = try RowstreamTestServer([LiveTests.table(store, batchSize: 6)])
        defer { server.shutdown() }
        let stream = try await server.client.stream("/tables/live/stream?dialect=\(dialect)")
        defer { stream.close() }
        _ = try await Self.nextRows(stream, dialect)
        var changed = store.all
        changed[1] = LiveTests.renamed(changed[1], "Renamed <2>")
        changed.remove(at: 2)
        changed.insert(people(20)[19], at: 0)
        store.set(changed)
        #expect(await server.client.post("/tables/live/refresh").status == .ok)
        var events: [ReceivedEvent] = []
        for _ in 0..<20 where events.count < 3 {
            let event = try #require(try await stream.nextEvent())
            let isBatch = event.data.contains("data-index") || event.data.contains("id=\"rs-live-more\"")
            if !["loading", "heartbeat"].contains(event.event) && !isBatch { events.append(event) }
        }
        let data = events.map(\.data)
        #expect(events.allSatisfy { $0.event == Self.type(dialect, $0.event) && $0.id == nil })
        switch dialect {
        case "htmx":
            #expect(events.map(\.event) == ["remove", "update", "insert"])
            #expect(data[0] == "<tr id=\"rs-live-k-p3\" hx-swap-oob=\"delete\"></tr>")
            #expect(data[1].hasPrefix("<tr hx-swap-oob=\"true\" id=\"rs-live-k-p2\" data-key=\"p2\">"))
            #expect(data[2].hasPrefix("<tbody hx-swap-oob=\"afterbegin:#rs-live-body\"><tr id=\"rs-live-k-p20\""))
        case "turbo":
            #expect(data[0] == "<turbo-stream action=\"remove\" target=\"rs-live-k-p3\"></turbo-stream>")
            #expect(data[1].hasPrefix("<turbo-stream action=\"replace\" target=\"rs-live-k-p2\"><template><tr id=\"rs-live-k-p2\""))
            #expect(data[2].hasPrefix("<turbo-stream action=\"prepend\" target=\"rs-live-body\"><template><tr id=\"rs-live-k-p20\""))
        default:
            #expect(data[0] == "selector #rs-live-k-p3\nmode remove")
            #expect(data[1].hasPrefix("mode outer\nelements <tr id=\"rs-live-k-p2\""))
            #expect(data[2].hasPrefix("selector #rs-live-body\nmode prepend\nelements <tr id=\"rs-live-k-p20\""))
        }
        #expect(data[1].contains("Renamed &lt;2&gt;") && !data.joined().contains("<2>"))
    }
}
