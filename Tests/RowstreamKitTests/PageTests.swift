import Foundation
import RowstreamKit
import TestSupport
import Testing

/// The page, the listing, the no-script page and row refetch for code-defined tables, live on port 0.
@Suite("Code-defined tables: page, listing, no-script page, refetch")
struct PageTests {
    @Test("the page shows skeleton rows shaped like the template's columns; /api/tables lists every binding")
    func pageAndListing() async throws {
        let server = try startServer([
            peopleTable(offsetSource(people(5)), batchSize: 7),
            peopleTable(offsetSource(people(5)), name: "others"),
        ])
        defer { server.shutdown() }
        for path in ["/", "/tables/people"] {
            let page = try await fetch(server.port, "GET", path)
            #expect(page.status == 200)
            #expect(page.body.contains("data-stream=\"/tables/people/stream\""))
            #expect(page.body.contains("People &lt;&amp;&gt;"), "the title is escaped")
            #expect(page.body.components(separatedBy: "<tr class=\"rs-skeleton\"").count - 1 == 7 + 1,
                    "a batch of skeleton rows, plus the template row")
            #expect(page.body.contains("<th scope=\"col\" class=\"rs-c rs-date\">Joined</th>"))
        }
        let listing = try object(try await fetch(server.port, "GET", "/api/tables").body)
        let tables = try #require(listing["tables"] as? [[String: Any]])
        #expect(tables.map { $0["name"] as? String } == ["people", "others"])
        #expect(tables[0]["pages"] == nil, "code-defined tables have no JSON page proxy")
        #expect(try await fetch(server.port, "GET", "/api/tables/people/pages").status == 404)
        #expect(try await fetch(server.port, "GET", "/tables/nobody").status == 404)
    }

    @Test("GET /tables/NAME/rows?after=TOKEN refetches the batch after a resume token")
    func refetch() async throws {
        let server = try startServer([peopleTable(offsetSource(people(25)))])
        defer { server.shutdown() }
        let stream = try await SSEClient(port: server.port, path: "/tables/people/stream")
        let first = try await stream.next(named: "rows").event
        let token = try #require(first.id)
        let again = try await fetch(server.port, "GET", "/tables/people/rows?after=")
        #expect(rowKeys(again.body) == rowKeys(first.data))
        let second = try await fetch(server.port, "GET", "/tables/people/rows?after=\(token)")
        #expect(second.status == 200)
        #expect(rowKeys(second.body) == (11...20).map { "p\($0)" })
        #expect(second.body.contains("data-index=\"10\""))
        #expect(try await fetch(server.port, "GET", "/tables/people/rows?after=garbage").status == 400)
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
