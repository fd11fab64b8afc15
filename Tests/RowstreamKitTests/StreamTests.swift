import Foundation
import HTTPServerTesting
import RowstreamKit
import RowstreamTesting
import TestSupport
import Testing

/// A code-defined table through the whole protocol, using only the public API: in-process (RowstreamTesting), and
/// the reconnect live on port 0.
@Suite("Code-defined tables, end to end")
struct StreamTests {
    @Test("every row once, in order, with typed and escaped cells; complete; a finished stream answers 204")
    func everyRowOnce() async throws {
        let server = try testServer([peopleTable(offsetSource(people(25)))])
        defer { server.shutdown() }
        let stream = try await server.client.stream("/tables/people/stream")
        defer { stream.close() }
        let session = try object(try await stream.next(named: "session").event.data)
        let next = try #require(session["next"] as? String)
        let columns = try #require(session["columns"] as? [[String: Any]])
        #expect(columns.map { $0["format"] as? String } == ["text", "date", "link", "badge", "number"])
        #expect(columns[1]["width"] as? String == "10rem")
        #expect(columns[4]["width"] is NSNull, "an invalid width is never written out")

        var html = ""
        var keys: [String] = []
        for batch in 0..<3 {
            let rows = try await stream.next(named: "rows").event
            html += rows.data
            keys += rowKeys(rows.data)
            if batch < 2 { #expect(await server.client.post(next).status == .accepted) }
        }
        #expect(keys == (1...25).map { "p\($0)" })
        #expect(html.contains("&lt;b&gt;Bold&lt;/b&gt; &amp; co"), "text is escaped")
        #expect(!html.contains("<b>"))
        #expect(html.contains("<time datetime=\"1970-01-02T00:00:00Z\">1970-01-02 00:00</time>"))
        #expect(html.contains("<a href=\"https://example.com/2\" rel=\"noopener noreferrer nofollow\">home 2</a>"))
        #expect(!html.contains("href=\"javascript:"), "only http(s) links")
        #expect(html.contains("rs-badge-trial-period"))
        #expect(html.contains(">2,000</td>"), "numbers are grouped")
        let complete = try await stream.next(named: "complete").event
        #expect(try object(complete.data)["total"] as? Int == 25)
        #expect(try await stream.nextEvent() == nil)

        let again = await server.client.get("/tables/people/stream", headers: ["Last-Event-ID": complete.id ?? ""])
        #expect(again.status == .noContent)
        #expect(again.stream == nil)
    }

    @Test("live: a reconnect with Last-Event-ID resumes after the last batch; a custom Codable token round-trips")
    func resume() async throws {
        struct Cursor: Codable, Sendable, Equatable { var page: Int; var tag: String }
        let everyone = people(30)
        let loads = Counter()
        let source = BatchSource<Person, Cursor>(initialToken: Cursor(page: 0, tag: "a/b+c")) { cursor in
            loads.increment()
            guard cursor.tag == "a/b+c" else { throw LoadFailure(message: "bad tag", isRetryable: false) }
            let batch = Array(everyone[(cursor.page * 10)..<(cursor.page * 10 + 10)])
            return cursor.page == 2 ? .completed(batch) : .items(batch, next: Cursor(page: cursor.page + 1, tag: cursor.tag))
        }
        let server = try startServer([peopleTable(source)])
        defer { server.shutdown() }
        let first = try await SSEClient(port: server.port, path: "/tables/people/stream")
        var keys = rowKeys(try await first.next(named: "rows").event.data)
        first.connection.closeNow()

        let second = try await SSEClient(port: server.port, path: "/tables/people/stream", lastEventID: first.lastEventID)
        let next = try #require(try object(try await second.next(named: "session").event.data)["next"] as? String)
        for _ in 0..<2 {
            #expect(try await post(server.port, next) == 202)
            keys += rowKeys(try await second.next(named: "rows").event.data)
        }
        _ = try await second.next(named: "complete")
        #expect(keys == (1...30).map { "p\($0)" }, "nothing lost, nothing doubled")
        #expect(loads.count == 3, "no batch loaded twice")
    }

    @Test("reload starts over: reset, then the first rows again")
    func reload() async throws {
        let server = try testServer([peopleTable(offsetSource(people(30)))])
        defer { server.shutdown() }
        let stream = try await server.client.stream("/tables/people/stream")
        defer { stream.close() }
        let session = try object(try await stream.next(named: "session").event.data)
        #expect(rowKeys(try await stream.next(named: "rows").event.data).first == "p1")
        #expect(await server.client.post(try #require(session["next"] as? String)).status == .accepted)
        #expect(rowKeys(try await stream.next(named: "rows").event.data).first == "p11")
        #expect(await server.client.post(try #require(session["reload"] as? String)).status == .accepted)
        _ = try await stream.next(named: "reset")
        #expect(rowKeys(try await stream.next(named: "rows").event.data).first == "p1")
    }

    @Test("numbered pages: BatchSource.pages walks page 1, 2, ... until an empty page")
    func numberedPages() async throws {
        let everyone = people(12)
        let source = BatchSource<Person, Int>.pages { page in
            Array(everyone.dropFirst((page - 1) * 5).prefix(5))
        }
        let server = try testServer([peopleTable(source, batchSize: 5)])
        defer { server.shutdown() }
        let stream = try await server.client.stream("/tables/people/stream")
        defer { stream.close() }
        let next = try #require(try object(try await stream.next(named: "session").event.data)["next"] as? String)
        var keys: [String] = []
        for _ in 0..<10 {
            let (event, _) = try await stream.next(named: "rows")
            keys += rowKeys(event.data)
            if event.data.hasSuffix("<!--rs:last-->") { break }
            #expect(await server.client.post(next).status == .accepted)
        }
        _ = try await stream.next(named: "complete")
        #expect(keys == (1...12).map { "p\($0)" })
    }

    @Test("an empty in-memory source completes at once with total 0")
    func emptySource() async throws {
        let server = try testServer([peopleTable(BatchSource.array([Person](), batchSize: 10))])
        defer { server.shutdown() }
        let stream = try await server.client.stream("/tables/people/stream")
        defer { stream.close() }
        let (rows, _) = try await stream.next(named: "rows")
        #expect(rowKeys(rows.data).isEmpty)
        #expect(try object(try await stream.next(named: "complete").event.data)["total"] as? Int == 0)
    }
}
