import Foundation
import HTTPServer
import HTTPServerTesting
import RowstreamKit
import RowstreamTesting
import Testing

/// Access on every route of a code-defined server (docs/SECURITY.md): credentials, allow lists, listings.
@Suite("Access: every route, allow lists, forbidden names")
struct AccessRouteTests {
    /// `payroll` only for the `ci` token; `people` for every authenticated viewer. `board` shows
    /// both; `lobby` shows people only. `payroll` is the first table, so `/` is its page for those who may see it.
    static func server() throws -> RowstreamTestServer {
        var payroll = peopleTable(offsetSource(people(12)), name: "payroll")
        payroll.live = LiveUpdates()
        var configuration = ServerConfiguration()
        var access = AccessConfiguration(mode: .tokens)
        access.tokens = [
            APIToken(name: "ci", sha256: APIToken.hash("ci-token"))!,
            APIToken(name: "viewer", sha256: APIToken.hash("viewer-token"), groups: ["staff"])!,
            APIToken(name: "gone", sha256: APIToken.hash("gone-token"), expires: Date(timeIntervalSince1970: 0))!,
        ]
        access.tables["payroll"] = AllowList(users: ["ci"])
        configuration.access = access
        return try RowstreamTestServer(
            [payroll, peopleTable(offsetSource(people(12)))],
            pages: [DashboardPage(name: "board", title: "Board", tables: ["people", "payroll"]),
                    DashboardPage(name: "lobby", title: "Lobby", tables: ["people"])],
            configuration: configuration)
    }

    /// Every route of the forbidden table and page, by method.
    static let forbiddenRoutes: [(HTTPMethod, String)] = [
        (.get, "/tables/payroll"), (.get, "/tables/payroll/stream"), (.get, "/tables/payroll/html"),
        (.get, "/tables/payroll/rows"), (.get, "/api/tables/payroll/pages"), (.post, "/tables/payroll/refresh"),
        (.post, "/tables/payroll/sessions/0123456789abcdef0123456789abcdef/next"),
        (.post, "/tables/payroll/sessions/0123456789abcdef0123456789abcdef/reload"),
        (.get, "/pages/board"), (.get, "/pages/board/stream"), (.get, "/tables/pay%72oll/stream"),
        (.get, "/tables/payroll/export.csv"), (.get, "/tables/payroll/export.ndjson"),
    ]
    /// Every route, for the credential checks.
    static let everyRoute: [(HTTPMethod, String)] = forbiddenRoutes + [
        (.get, "/"), (.get, "/index.html"), (.get, "/tables/people"), (.get, "/tables/people/stream"),
        (.get, "/api/tables"), (.get, "/api/pages"), (.get, "/pages/lobby"), (.get, "/metrics"), (.get, "/app.js"),
        (.post, "/tables/people/sessions/0123456789abcdef0123456789abcdef/next"),
    ]

    static func bearer(_ token: String) -> HTTPHeaders { ["Authorization": "Bearer \(token)"] }

    @Test("missing, wrong, expired and tampered tokens get 401 on every route, and the answer names nothing")
    func credentials() async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let cases: [HTTPHeaders] = [[:], Self.bearer("wrong"), Self.bearer("gone-token"), Self.bearer("ci-tokem"),
                                    Self.bearer("ci-token "), ["Authorization": "Basic Y2ktdG9rZW4="],
                                    Self.bearer(APIToken.hash("ci-token"))]
        for headers in cases {
            for (method, path) in Self.everyRoute {
                let answer = await server.client.execute(method, path, headers: headers)
                answer.stream?.close()
                #expect(answer.status == .unauthorized, "\(method) \(path) with \(headers)")
                #expect(!answer.text.contains("payroll") && !answer.text.contains("people"))
            }
        }
        #expect(await server.client.get("/healthz").status == .ok)
    }

    @Test("a viewer not on a table's list gets 403 on each of its routes and its pages; the allowed one does not")
    func forbidden() async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        await Self.expectForbidden(on: server, refused: Self.bearer("viewer-token"), allowed: Self.bearer("ci-token"))
    }

    /// Each of ``forbiddenRoutes`` answers 403 with the `refused` viewer's credential, and neither 403 nor 401 with
    /// the `allowed` one's.
    static func expectForbidden(on server: RowstreamTestServer, refused: HTTPHeaders, allowed: HTTPHeaders) async {
        for (method, path) in forbiddenRoutes {
            let refusal = await server.client.execute(method, path, headers: refused)
            refusal.stream?.close()
            #expect(refusal.status == .forbidden, "\(method) \(path)")
            #expect(!refusal.text.contains("payroll") && !refusal.text.contains("board"), "the refusal names nothing")
            let answer = await server.client.execute(method, path, headers: allowed)
            answer.stream?.close()
            #expect(answer.status != .forbidden && answer.status != .unauthorized, "\(method) \(path)")
        }
    }

    @Test("listings, the home page, table pages and /tables.css show only what the viewer may see; the name never appears")
    func listings() async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let viewer = Self.bearer("viewer-token")
        let tables = try object(await server.client.get("/api/tables", headers: viewer).text)
        #expect((tables["tables"] as? [[String: Any]])?.map { $0["name"] as? String } == ["people"])
        #expect((tables["pages"] as? [[String: Any]])?.map { $0["name"] as? String } == ["lobby"])
        let pages = try object(await server.client.get("/api/pages", headers: viewer).text)
        #expect((pages["pages"] as? [[String: Any]])?.map { $0["name"] as? String } == ["lobby"])
        let home = await server.client.get("/", headers: viewer)
        #expect(home.status == .ok && home.text.contains("data-stream=\"/tables/people/stream\""),
                "home: the first table the viewer may see")
        let stream = try #require(await server.client.get("/tables/people/stream", headers: viewer).stream)
        let session = try await stream.next(named: "session").event.data
        stream.close()
        for answer in [home, await server.client.get("/tables/people", headers: viewer),
                       await server.client.get("/pages/lobby", headers: viewer),
                       await server.client.get("/tables/people/html", headers: viewer),
                       await server.client.get("/api/tables", headers: viewer),
                       await server.client.get("/tables.css", headers: viewer)] {
            for name in ["payroll", "board"] {
                #expect(!answer.text.contains(name), "\(name) leaked")
            }
        }
        #expect(!session.contains("payroll"))
        #expect(await server.client.get("/tables/people", headers: viewer).text.contains("/pages/lobby"),
                "a page that shows nothing stricter is linked")
        let everything = try object(await server.client.get("/api/tables", headers: Self.bearer("ci-token")).text)
        #expect((everything["tables"] as? [[String: Any]])?.map { $0["name"] as? String } == ["payroll", "people"])
        #expect(await server.client.get("/", headers: Self.bearer("ci-token")).text.contains("/tables/payroll/stream"))
        let sheet = await server.client.get("/tables.css", headers: viewer)
        #expect(sheet.text.contains("[data-table=\"people\"]"), "the stylesheet: the tables the viewer may see")
        #expect(sheet.headers["Cache-Control"] == "private, no-cache" && sheet.headers["Vary"] == "Cookie, Authorization",
                "one viewer's sheet is never another's from a cache")
        #expect(await server.client.get("/tables.css", headers: Self.bearer("ci-token")).text
            .contains("[data-table=\"payroll\"]"))
        #expect(await server.client.get("/metrics", headers: viewer).status == .forbidden,
                "the metrics name every table: only a viewer who may see all of them")
        #expect(await server.client.get("/metrics", headers: Self.bearer("ci-token")).status == .ok)
    }

    @Test("a server that would listen beyond loopback without an access mode refuses to start, saying how")
    func refusesWithoutMode() throws {
        var configuration = ServerConfiguration()
        configuration.host = "0.0.0.0"
        configuration.port = 0
        do {
            let server = try RowstreamServer.start([peopleTable(offsetSource(people(3)))], configuration: configuration)
            server.shutdown()
            Issue.record("started on 0.0.0.0 without an access mode")
        } catch {
            #expect("\(error)".contains("--access") && "\(error)".contains("0.0.0.0"))
        }
        configuration.host = "127.0.0.1"
        let loopback = try RowstreamServer.start([peopleTable(offsetSource(people(3)))], configuration: configuration)
        loopback.shutdown()
    }
}
