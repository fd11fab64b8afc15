import Foundation
import HTTPServer
import HTTPServerTesting
import RowstreamKit
import RowstreamTesting
import Testing

/// Mode `users` on every route of a code-defined server: cookies, the login redirect, allow lists by group.
@Suite("Access: users mode on every route")
struct AccessUsersRouteTests {
    static let keys = try! SealingKeys(current: Array(repeating: 4, count: 32))

    /// `payroll` for the `finance` group; alice is in it, bob is not.
    static func server() throws -> RowstreamTestServer {
        var configuration = ServerConfiguration()
        configuration.sealingKeys = keys
        var access = AccessConfiguration(mode: .users)
        let hash = try #require(PasswordHash.make("pw"))
        access.users = [try #require(UserAccount(name: "alice", passwordHash: hash, groups: ["finance"])),
                        try #require(UserAccount(name: "bob", passwordHash: hash))]
        access.tables["payroll"] = AllowList(groups: ["finance"])
        configuration.access = access
        return try RowstreamTestServer(
            [peopleTable(offsetSource(people(12)), name: "payroll"), peopleTable(offsetSource(people(12)))],
            pages: [DashboardPage(name: "board", title: "Board", tables: ["people", "payroll"])],
            configuration: configuration)
    }

    static func cookie(_ user: String, expires: TimeInterval = 600, keys: SealingKeys = keys) -> HTTPHeaders {
        ["Cookie": "rowstream_session=\(SessionCookie.seal(user: user, expires: Date(timeIntervalSinceNow: expires), keys: keys))"]
    }

    @Test("missing, wrong, expired and tampered cookies: 401 on every route, 303 to /login for a browser's page")
    func badCookies() async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        var tampered = Array(Self.cookie("alice")["Cookie"]!.utf8)
        tampered[tampered.count - 3] ^= 0x01
        let cases: [HTTPHeaders] = [
            [:], ["Cookie": "rowstream_session=nonsense"], Self.cookie("alice", expires: -1),
            ["Cookie": String(decoding: tampered, as: UTF8.self)], Self.cookie("mallory"),
            Self.cookie("alice", keys: try SealingKeys(current: Array(repeating: 5, count: 32))),
        ]
        for headers in cases {
            for (method, path) in AccessRouteTests.everyRoute {
                let answer = await server.client.execute(method, path, headers: headers)
                answer.stream?.close()
                #expect(answer.status == .unauthorized, "\(method) \(path) with \(headers)")
                #expect(!answer.text.contains("payroll"))
            }
            var browser = headers
            browser.add(name: "Accept", value: "text/html")
            let page = await server.client.get("/tables/people", headers: browser)
            #expect(page.status == .seeOther && page.headers["Location"] == "/login?next=/tables/people")
        }
    }

    @Test("a signed-in user sees what their groups allow: 403 and no name for the others")
    func allowLists() async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        await AccessRouteTests.expectForbidden(on: server, refused: Self.cookie("bob"), allowed: Self.cookie("alice"))
        let listing = await server.client.get("/api/tables", headers: Self.cookie("bob"))
        #expect(listing.status == .ok && !listing.text.contains("payroll") && !listing.text.contains("board"))
        #expect(await server.client.get("/api/tables", headers: Self.cookie("alice")).text.contains("payroll"))
    }

    @Test("the login page signs in through the server and the cookie opens the page it was sent from")
    func signIn() async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let answer = await server.client.post("/login", body: Array("user=bob&password=pw&next=%2Ftables%2Fpeople".utf8))
        #expect(answer.status == .seeOther && answer.headers["Location"] == "/tables/people")
        let cookie = try #require(answer.headers["Set-Cookie"]).prefix { $0 != ";" }
        let page = await server.client.get("/tables/people", headers: ["Cookie": String(cookie)])
        #expect(page.status == .ok && page.text.contains("data-stream=\"/tables/people/stream\""))
    }
}
