import Foundation
import HTTPServerTesting
import RowstreamKit
import RowstreamTesting
import TestSupport
import Testing

/// The page, the listing and row refetch for code-defined tables in-process; the no-script page live on port 0.
@Suite("Code-defined tables: page, listing, no-script page, refetch")
struct PageTests {
    @Test("the page shows skeleton rows shaped like the template's columns; /api/tables lists every binding")
    func pageAndListing() async throws {
        let server = try testServer([
            peopleTable(offsetSource(people(5)), batchSize: 7),
            peopleTable(offsetSource(people(5)), name: "others"),
        ])
        defer { server.shutdown() }
        for path in ["/", "/tables/people"] {
            let response = await server.client.get(path)
            let page = response.text
            #expect(response.status == .ok)
            #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(page.contains("data-stream=\"/tables/people/stream\""))
            #expect(page.contains("People &lt;&amp;&gt;"), "the title is escaped")
            #expect(page.components(separatedBy: "<tr class=\"rs-skeleton\"").count - 1 == 7 + 1,
                    "a batch of skeleton rows, plus the template row")
            #expect(page.contains("<th scope=\"col\" class=\"rs-c rs-date\">Joined</th>"))
        }
        #expect(await server.client.execute(.head, "/").body.isEmpty, "HEAD: the headers only")
        let listing = try object(await server.client.get("/api/tables").text)
        let tables = try #require(listing["tables"] as? [[String: Any]])
        #expect(tables.map { $0["name"] as? String } == ["people", "others"])
        #expect(tables[0]["pages"] == nil, "code-defined tables have no JSON page proxy")
        #expect(await server.client.get("/api/tables/people/pages").status == .notFound)
        #expect(await server.client.get("/tables/nobody").status == .notFound)
    }

    @Test("GET /tables/NAME/rows?after=TOKEN refetches the batch after a resume token")
    func refetch() async throws {
        let server = try testServer([peopleTable(offsetSource(people(25)))])
        defer { server.shutdown() }
        let stream = try await server.client.stream("/tables/people/stream")
        defer { stream.close() }
        let first = try await stream.next(named: "rows").event
        let token = try #require(first.id)
        let again = await server.client.get("/tables/people/rows?after=")
        #expect(rowKeys(again.text) == rowKeys(first.data))
        let second = await server.client.get("/tables/people/rows?after=\(token)")
        #expect(second.status == .ok)
        #expect(rowKeys(second.text) == (11...20).map { "p\($0)" })
        #expect(second.text.contains("data-index=\"10\""))
        #expect(await server.client.get("/tables/people/rows?after=garbage").status == .badRequest)
    }

    @Test("the no-script page streams the rows and links to the next page")
    func noScriptPage() async throws {
        let server = try startServer([peopleTable(offsetSource(people(45)))])
        defer { server.shutdown() }
        let connection = try TestConnection(port: server.port)
        defer { connection.closeNow() }
        try connection.send("GET /tables/people/html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let head = try await connection.readHead()
        #expect(head.status == 200)
        var body = ""
        for _ in 0..<10_000 {
            guard let line = try await connection.readLine() else { break }
            body += line + "\n"
        }
        #expect(rowKeys(body).filter { !$0.isEmpty } == (1...30).map { "p\($0)" })
        #expect(body.contains("id=\"rs-next\""))
    }
}
