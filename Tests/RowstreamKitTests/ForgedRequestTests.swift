import Foundation
import HTTPServer
import HTTPServerTesting
import RowstreamKit
import RowstreamTesting
import TestSupport
import Testing

/// docs/SECURITY.md, "Forged requests": every state-changing route (`next`, `reload`, `refresh`) refuses a request
/// a browser sent from another site (403), before it starts any upstream fetch; the server's own pages, typed
/// requests and non-browser clients pass.
@Suite("Forged requests: same-origin POSTs only")
struct ForgedRequestTests {
    /// What a browser sends on a cross-site (or not quite same-origin) POST.
    static let hostile: [(String, HTTPHeaders)] = [
        ("another site's Origin", ["Host": "127.0.0.1:8080", "Origin": "http://evil.example"]),
        ("another port's Origin", ["Host": "127.0.0.1:8080", "Origin": "http://127.0.0.1:9999"]),
        ("a look-alike host", ["Host": "127.0.0.1:8080", "Origin": "http://127.0.0.1.evil.example:8080"]),
        ("null Origin (sandboxed frame, data: page)", ["Host": "127.0.0.1:8080", "Origin": "null"]),
        ("Origin without Host", ["Origin": "http://127.0.0.1:8080"]),
        ("Sec-Fetch-Site: cross-site", ["Sec-Fetch-Site": "cross-site"]),
        ("Sec-Fetch-Site: same-site", ["Sec-Fetch-Site": "same-site"]),
        ("Sec-Fetch-Site: cross-site with a matching Origin",
         ["Host": "127.0.0.1:8080", "Origin": "http://127.0.0.1:8080", "Sec-Fetch-Site": "cross-site"]),
    ]

    /// What the server's own page, a typed request or a script sends.
    static let friendly: [(String, HTTPHeaders)] = [
        ("Sec-Fetch-Site: same-origin", ["Sec-Fetch-Site": "same-origin", "Origin": "http://127.0.0.1:8080",
                                         "Host": "127.0.0.1:8080"]),
        ("Sec-Fetch-Site: none", ["Sec-Fetch-Site": "none"]),
        ("the same Origin as Host", ["Host": "127.0.0.1:8080", "Origin": "http://127.0.0.1:8080"]),
        ("the same host, default port, other case", ["Host": "Example.COM", "Origin": "https://example.com"]),
        ("an explicit default port", ["Host": "example.com:80", "Origin": "http://example.com:80"]),
        ("IPv6", ["Host": "[::1]:8080", "Origin": "http://[::1]:8080"]),
        ("no Origin, no Sec-Fetch-Site (curl)", ["Host": "127.0.0.1:8080"]),
    ]

    /// A table of 100 people whose loader counts its calls, and a live copy of it (for `refresh`).
    static func tables(_ loads: Counter) -> [TableBinding] {
        let everyone = people(100)
        let source = BatchSource<Person, Int>(initialToken: 0) { offset in
            loads.increment()
            let end = min(offset + 10, everyone.count)
            return end >= everyone.count ? .completed(Array(everyone[offset..<end]))
                                         : .items(Array(everyone[offset..<end]), next: end)
        }
        var live = peopleTable(source, name: "live")
        live.live = LiveUpdates()
        return [peopleTable(source), live]
    }

    /// A viewer of `people` after its first batch: its stream, and its session's `next` and `reload` URLs.
    static func openSession(_ server: RowstreamTestServer) async throws -> (InProcessStream, String, String) {
        let stream = try await server.client.stream("/tables/people/stream")
        let session = try object(try await stream.next(named: "session").event.data)
        _ = try await stream.next(named: "rows")
        guard let next = session["next"] as? String, let reload = session["reload"] as? String else {
            stream.close()
            throw TestConnection.Failure(description: "no next or reload in \(session)")
        }
        return (stream, next, reload)
    }

    @Test("next, reload and refresh refuse every cross-site request with 403, and fetch nothing upstream")
    func hostileRequestsAreRefused() async throws {
        let loads = Counter()
        let server = try testServer(Self.tables(loads))
        defer { server.shutdown() }
        let (stream, next, reload) = try await Self.openSession(server)
        defer { stream.close() }
        let before = loads.count
        for (name, headers) in Self.hostile {
            for target in [next, reload, "/tables/live/refresh", "/tables/nope/anything"] {
                let answer = await server.client.post(target, headers: headers)
                #expect(answer.status == .forbidden, "\(name): POST \(target)")
                #expect(answer.text.contains("refused"), "\(name): says why")
            }
            let put = await server.client.execute(HTTPMethod(rawValue: "PUT"), next, headers: headers)
            #expect(put.status == .forbidden, "\(name): every method but GET, HEAD and OPTIONS")
        }
        #expect(loads.count == before, "no refused request started an upstream fetch")
        // Reads stay open to everyone: a cross-site GET changes nothing.
        #expect(await server.client.get("/api/tables", headers: ["Sec-Fetch-Site": "cross-site"]).status == .ok)
    }

    @Test("the server's own pages, typed requests and scripts pass")
    func friendlyRequestsPass() async throws {
        let server = try testServer(Self.tables(Counter()))
        defer { server.shutdown() }
        let (stream, next, _) = try await Self.openSession(server)
        defer { stream.close() }
        for (name, headers) in Self.friendly {
            #expect(await server.client.post(next, headers: headers).status == .accepted, "\(name): next")
            // Not a live table: the route itself answers (404), not the guard.
            #expect(await server.client.post("/tables/people/refresh", headers: headers).status == .notFound, "\(name)")
        }
        let refreshed = await server.client.post("/tables/live/refresh", headers: ["Sec-Fetch-Site": "same-origin"])
        #expect(refreshed.status == .ok, "refresh: \(refreshed.text)")
    }

    @Test("an origin on the allow list passes as if same-origin; others still do not")
    func allowedOrigins() async throws {
        var configuration = ServerConfiguration()
        configuration.allowedOrigins = ["https://Embed.example:443"]
        let server = try RowstreamTestServer(Self.tables(Counter()), configuration: configuration)
        defer { server.shutdown() }
        let embed: HTTPHeaders = ["Origin": "https://embed.example", "Sec-Fetch-Site": "cross-site", "Host": "a"]
        #expect(await server.client.post("/tables/people/refresh", headers: embed).status == .notFound)
        let other: HTTPHeaders = ["Origin": "https://other.example", "Sec-Fetch-Site": "cross-site", "Host": "a"]
        #expect(await server.client.post("/tables/people/refresh", headers: other).status == .forbidden)
    }

    @Test("over a socket: a cross-site POST is a 403 with the security headers, a same-origin one goes through")
    func live() async throws {
        let server = try startServer(Self.tables(Counter()))
        defer { server.shutdown() }
        // TestConnection sends `Host: 127.0.0.1`.
        let refused = try await fetch(server.port, "POST", "/tables/live/refresh", headers: ["Origin": "http://evil.example"])
        #expect(refused.status == 403)
        #expect(refused.headers["content-type"] == "text/plain; charset=utf-8")
        #expect(refused.headers["x-content-type-options"] == "nosniff")
        #expect(refused.headers["content-security-policy"]?.contains("default-src 'self'") == true)
        let passed = try await fetch(server.port, "POST", "/tables/live/refresh", headers: ["Origin": "http://127.0.0.1"])
        #expect(passed.status == 200)
    }
}
