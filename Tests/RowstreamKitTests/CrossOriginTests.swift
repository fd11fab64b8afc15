import Foundation
import HTTPServer
import HTTPServerTesting
import RowstreamKit
import RowstreamTesting
import TestSupport
import Testing

/// docs/EMBED.md, "Server": the origins of `allowedOrigins` (and only they) get CORS headers on every route an
/// embedded table uses (its page, stream, `next`, `reload`, `refresh`, the embed script, its modules and CSS), their
/// preflights are answered before any route runs, `Access-Control-Allow-Credentials` only with `allowCredentials`,
/// and every other origin gets no CORS header (but `*` on the public static files) while its POSTs stay refused.
@Suite("Cross-origin embedding: CORS for allowedOrigins only")
struct CrossOriginTests {
    static let embed = "https://embed.example"
    static let allowed: HTTPHeaders = ["Origin": "https://Embed.example", "Sec-Fetch-Site": "cross-site", "Host": "a"]
    static let other: HTTPHeaders = ["Origin": "https://other.example", "Sec-Fetch-Site": "cross-site", "Host": "a"]
    static let staticFiles = ["/embed.js", "/mount.js", "/table.js", "/app.css", "/embed.css", "/tables.css"]

    static func server(_ loads: Counter, credentials: Bool = false, origins: [String] = [embed + ":443"]) throws
        -> RowstreamTestServer
    {
        var configuration = ServerConfiguration()
        configuration.allowedOrigins = origins
        configuration.allowCredentials = credentials
        return try RowstreamTestServer(ForgedRequestTests.tables(loads), configuration: configuration)
    }

    /// Every route an embedded table uses, answered with `headers`: (what, status, response headers).
    static func answers(_ server: RowstreamTestServer, _ headers: HTTPHeaders) async throws
        -> [(String, HTTPStatus, HTTPHeaders)]
    {
        var answers: [(String, HTTPStatus, HTTPHeaders)] = []
        for path in ["/tables/people"] + staticFiles {
            let answer = await server.client.get(path, headers: headers)
            answers.append(("GET " + path, answer.status, answer.headers))
        }
        let stream = await server.client.get("/tables/people/stream", headers: headers)
        answers.append(("GET stream", stream.status, stream.headers))
        stream.stream?.close()
        let (viewer, next, reload) = try await ForgedRequestTests.openSession(server)
        defer { viewer.close() }
        for target in [next, reload, "/tables/live/refresh"] {
            let answer = await server.client.post(target, headers: headers)
            answers.append(("POST " + target, answer.status, answer.headers))
        }
        return answers
    }

    @Test("an allowed origin gets Access-Control-Allow-Origin (and Vary: Origin) on every route, no credentials")
    func allowedOriginEverywhere() async throws {
        let server = try Self.server(Counter())
        defer { server.shutdown() }
        for (what, status, headers) in try await Self.answers(server, Self.allowed) {
            #expect(status.code < 300, "\(what): \(status.code)")
            #expect(headers["Access-Control-Allow-Origin"] == Self.embed, "\(what)")
            #expect(headers["Access-Control-Allow-Credentials"] == nil, "\(what): credentials not configured")
            #expect(headers.values(for: "Vary").contains { $0.contains("Origin") }, "\(what)")
        }
    }

    @Test("allowCredentials adds Access-Control-Allow-Credentials: true for an allowed origin only")
    func credentials() async throws {
        let server = try Self.server(Counter(), credentials: true)
        defer { server.shutdown() }
        for (what, _, headers) in try await Self.answers(server, Self.allowed) {
            #expect(headers["Access-Control-Allow-Credentials"] == "true", "\(what)")
        }
        for (what, _, headers) in try await Self.answers(server, Self.other) {
            #expect(headers["Access-Control-Allow-Credentials"] == nil, "\(what)")
            #expect(headers["Access-Control-Allow-Origin"] == Self.publicOrNone(what), "\(what)")
        }
    }

    /// What another origin's request for `what` gets as `Access-Control-Allow-Origin`: `*` for a static file (public,
    /// without credentials, so the embed's module runs and explains the refusal: docs/EMBED.md), else nothing.
    static func publicOrNone(_ what: String) -> String? {
        staticFiles.contains { what == "GET " + $0 && $0 != "/tables.css" } ? "*" : nil   // tables.css: a route
    }

    @Test("another origin gets no CORS header on any route but the static files' *, and its POSTs stay refused")
    func otherOriginsGetNothing() async throws {
        let server = try Self.server(Counter())
        defer { server.shutdown() }
        for (what, status, headers) in try await Self.answers(server, Self.other) {
            #expect(headers["Access-Control-Allow-Origin"] == Self.publicOrNone(what), "\(what)")
            #expect(headers["Access-Control-Allow-Credentials"] == nil, "\(what)")
            if what.hasPrefix("POST") { #expect(status == .forbidden, "\(what)") }
        }
        // The table's own page and stream stay unreadable to it; a static file's 404 is not opened either.
        #expect(await server.client.get("/missing.js", headers: Self.other).headers["Access-Control-Allow-Origin"] == nil)
    }

    @Test("a preflight from an allowed origin is a 204 with methods and Last-Event-ID; others a 403 without CORS")
    func preflight() async throws {
        let loads = Counter()
        let server = try Self.server(loads)
        defer { server.shutdown() }
        let (viewer, next, _) = try await ForgedRequestTests.openSession(server)
        defer { viewer.close() }
        let before = loads.count
        for target in [next, "/tables/live/refresh", "/tables/people/stream", "/embed.js"] {
            var asking = Self.allowed
            asking.add(name: "Access-Control-Request-Method", value: "POST")
            let answer = await server.client.execute(.options, target, headers: asking)
            #expect(answer.status == .noContent, "\(target)")
            #expect(answer.headers["Access-Control-Allow-Origin"] == Self.embed, "\(target)")
            #expect(answer.headers["Access-Control-Allow-Methods"]?.contains("POST") == true, "\(target)")
            #expect(answer.headers["Access-Control-Allow-Headers"] == "Last-Event-ID", "\(target)")
            var refused = Self.other
            refused.add(name: "Access-Control-Request-Method", value: "POST")
            let denied = await server.client.execute(.options, target, headers: refused)
            #expect(denied.status == .forbidden, "\(target)")
            #expect(denied.headers["Access-Control-Allow-Origin"] == nil, "\(target)")
        }
        #expect(loads.count == before, "no preflight ran a route")
    }

    @Test("without allowedOrigins: no CORS header but the static files' * and no Vary: Origin for anyone")
    func noneConfigured() async throws {
        let server = try Self.server(Counter(), origins: [])
        defer { server.shutdown() }
        for (what, _, headers) in try await Self.answers(server, Self.allowed) {
            #expect(headers["Access-Control-Allow-Origin"] == Self.publicOrNone(what), "\(what)")
            #expect(!headers.values(for: "Vary").contains { $0.contains("Origin") }, "\(what)")
        }
    }

    @Test("a protected table (access modes): preflights pass without credentials, refusals still carry CORS")
    func protectedTables() async throws {
        var configuration = ServerConfiguration()
        configuration.allowedOrigins = [Self.embed]
        configuration.allowCredentials = true
        var access = AccessConfiguration(mode: .tokens)
        access.tokens = [APIToken(name: "ci", sha256: APIToken.hash("ci-token"))!]
        configuration.access = access
        let server = try RowstreamTestServer([peopleTable(offsetSource(people(12)))], configuration: configuration)
        defer { server.shutdown() }
        var asking = Self.allowed
        asking.add(name: "Access-Control-Request-Method", value: "GET")
        let preflight = await server.client.execute(.options, "/tables/people/stream", headers: asking)
        #expect(preflight.status == .noContent, "a preflight carries no credentials: answered before access")
        // Without the credential: 401, readable by the embedding page (it shows the error), nothing served.
        let refused = await server.client.get("/tables/people", headers: Self.allowed)
        #expect(refused.status == .unauthorized)
        #expect(refused.headers["Access-Control-Allow-Origin"] == Self.embed)
        #expect(!refused.text.contains("rs-table"))
        var withToken = Self.allowed
        withToken.add(name: "Authorization", value: "Bearer ci-token")
        let served = await server.client.get("/tables/people", headers: withToken)
        #expect(served.status == .ok && served.headers["Access-Control-Allow-Credentials"] == "true")
    }

    @Test("an allowed origin that is not an origin is refused at start")
    func invalidOrigin() {
        var configuration = ServerConfiguration()
        configuration.allowedOrigins = ["embed.example"]
        #expect(throws: RowstreamError.self) {
            _ = try RowstreamTestServer(ForgedRequestTests.tables(Counter()), configuration: configuration)
        }
    }
}
