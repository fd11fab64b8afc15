import Foundation
import HTTPServer
import HTTPServerTesting
import RowstreamKit
import RowstreamTesting
import TestSupport
import Testing

/// docs/SECURITY.md, "Response headers": every answer (HTML, event stream, JSON, static, CSS, errors, `.later`
/// answers) carries the Content-Security-Policy and Referrer-Policy; `frame-ancestors` follows the configuration.
@Suite("Response headers on every response")
struct ResponseHeaderTests {
    static let policy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    static func expectHeaders(_ headers: HTTPHeaders, policy: String = policy, _ what: String) {
        #expect(headers["Content-Security-Policy"] == policy, "\(what)")
        #expect(headers["Referrer-Policy"] == "same-origin", "\(what)")
    }

    @Test("page, stream, JSON, static, CSS, no-script page, errors and the JSON answer of a refresh")
    func everyResponseType() async throws {
        var live = peopleTable(offsetSource(people(30)), name: "live")
        live.live = LiveUpdates()
        let server = try testServer([peopleTable(offsetSource(people(30))), live])
        defer { server.shutdown() }
        for target in ["/", "/tables/people", "/api/tables", "/app.css", "/app.js", "/tables.css", "/healthz",
                       "/metrics", "/tables/nope", "/nope.js", "/tables/people/rows?after=garbage"] {
            let answer = await server.client.get(target)
            Self.expectHeaders(answer.headers, "GET \(target): \(answer.status)")
        }
        Self.expectHeaders(await server.client.execute(.delete, "/tables/people").headers, "405")
        Self.expectHeaders(await server.client.post("/tables/live/refresh").headers, "a .later JSON answer")
        Self.expectHeaders(await server.client.post("/tables/live/refresh", headers: ["Origin": "null"]).headers, "403")
        for target in ["/tables/people/stream", "/tables/people/html"] {
            let answer = await server.client.get(target)
            answer.stream?.close()
            Self.expectHeaders(answer.headers, "stream \(target)")
        }
    }

    @Test("the pages carry no inline style or script: widths come from /tables.css")
    func noInlineStyle() async throws {
        let server = try testServer([peopleTable(offsetSource(people(30)))])
        defer { server.shutdown() }
        let page = await server.client.get("/tables/people").text
        #expect(page.contains("<link rel=\"stylesheet\" href=\"/tables.css\">"))
        #expect(!page.contains("style="))
        #expect(!page.contains("<style"))
        #expect(!page.contains("<script>"), "only <script src=...>")
        let css = await server.client.get("/tables.css")
        #expect(css.headers["Content-Type"] == "text/css; charset=utf-8")
        #expect(css.text.contains("table.rs-table[data-table=\"people\"]>colgroup>col:nth-child(2){width:max(10rem,"))
        #expect(!css.text.contains("bogus"), "an invalid width is never written")
        let plain = try #require(await server.client.get("/tables/people/html").stream)
        defer { plain.close() }
        let text = String(decoding: try await plain.readToEnd(), as: UTF8.self)
        #expect(text.contains("<link rel=\"stylesheet\" href=\"/tables.css\">"))
        #expect(!text.contains("style="))
        #expect(!text.contains("<style"))
    }

    @Test("the HTTP server's own answers (malformed request, oversized head, connection cap) carry the same headers")
    func serverMadeAnswers() async throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.eventLoopCount = 1
        configuration.maxConnectionsPerAddress = 1
        configuration.frameAncestors = ["'self'"]
        let server = try RowstreamServer.start([peopleTable(offsetSource(people(3)))], configuration: configuration)
        defer { server.shutdown() }
        let policy = Self.policy.replacingOccurrences(of: "frame-ancestors 'none'", with: "frame-ancestors 'self'")
        // Each from its own address: the cap is one connection per address.
        let big = "<" + String(repeating: "b", count: 17_000)   // past the 16 KiB of header fields
        for (request, status, address) in [
            ("G(T /<script>x HTTP/1.1\r\nHost: h\r\n\r\n", 400, "127.0.0.2"),
            ("GET / HTTP/1.1\r\nHost: h\r\nX-Big: \(big)\r\n\r\n", 431, "127.0.0.3"),
        ] {
            let connection = try TestConnection(port: server.port, sourceAddress: address)
            try connection.send(request)
            let answer = try await connection.readResponse()
            #expect(answer.status == status)
            #expect(answer.headers["content-security-policy"] == policy, "\(status)")
            #expect(answer.headers["referrer-policy"] == "same-origin", "\(status)")
            #expect(!answer.body.contains("<"), "\(status): nothing of the request echoed")
            #expect(try await connection.isClosedByServer())
        }
        let held = try TestConnection(port: server.port, sourceAddress: "127.0.0.4")
        try held.send("GET /healthz HTTP/1.1\r\nHost: h\r\n\r\n")
        let routed = try await held.readResponse()
        #expect(routed.headers["content-security-policy"] == policy, "a routed answer: the same policy")
        let refused = try await TestConnection(port: server.port, sourceAddress: "127.0.0.4").readResponse()
        #expect(refused.status == 503)
        #expect(refused.headers["content-security-policy"] == policy, "503")
        #expect(refused.headers["referrer-policy"] == "same-origin", "503")
    }

    @Test("frame-ancestors as configured; a source that could break the header is refused at start")
    func frameAncestors() async throws {
        var configuration = ServerConfiguration()
        configuration.frameAncestors = ["'self'", "https://intranet.example"]
        let server = try RowstreamTestServer([peopleTable(offsetSource(people(3)))], configuration: configuration)
        defer { server.shutdown() }
        let policy = Self.policy.replacingOccurrences(of: "frame-ancestors 'none'",
                                                      with: "frame-ancestors 'self' https://intranet.example")
        Self.expectHeaders(await server.client.get("/").headers, policy: policy, "configured")
        for bad in ["'self'; script-src *", "https://a.example,https://b", "'unsafe-inline'", ""] {
            configuration.frameAncestors = [bad]
            #expect(throws: RowstreamError.self, "\(bad)") {
                try RowstreamTestServer([peopleTable(offsetSource(people(3)))], configuration: configuration)
            }
        }
    }
}
