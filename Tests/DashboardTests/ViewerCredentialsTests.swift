import Dashboard
import Foundation
import HTTPServer
import HTTPServerTesting
import RowstreamKit
import Locking
import TestSupport
import Testing

/// Tables that forward the viewer's own header or cookie upstream (``ViewerCredentials``, access mode `none`): each
/// credential sees only its own rows, in storms, across reconnects and through the JSON proxy; a token of one
/// credential is no position for another; a viewer without the credential is refused on every route and nothing is
/// fetched for them; hostile values never reach the upstream.
@Suite struct ViewerCredentialsTests {
    typealias Fixture = ViewerCredentials

    @Test func twoCredentialsStormsAtOnceEachSeeOnlyTheirOwnRowsThroughHeaderAndCookie() async throws {
        try await Fixture.withDashboard { client, upstream in
            // Three viewers of each credential on each table, interleaved, at once.
            let viewers = (0..<12).map { (user: Fixture.users[$0 % 2], table: $0 % 4 < 2 ? "mine" : "cookied") }
            let read = try await withThrowingTaskGroup(of: (String, String).self) { group in
                for viewer in viewers {
                    group.addTask {
                        (viewer.user, try await Fixture.read(client, viewer.table, headers: Fixture.headers(viewer.user)).html)
                    }
                }
                var read: [(String, String)] = []
                for try await one in group { read.append(one) }
                return read
            }
            #expect(read.count == 12)
            for (user, html) in read {
                let other = Fixture.users.first { $0 != user }!
                #expect(rowKeys(html) == (1...Fixture.count).map(String.init), "\(user)")
                #expect(html.contains("row of \(user) ") && !html.contains("row of \(other) "), "\(user): \(html)")
            }
            // Per credential and table, one request per page however many viewers (two tables: two each).
            let expected = Dictionary(uniqueKeysWithValues: Fixture.users.flatMap { user in
                stride(from: 0, to: Fixture.count, by: Fixture.batchSize).map { ("\(user) \($0)", 2) }
            })
            #expect(upstream.requests == expected)
            #expect(upstream.withoutCredential == 0)
        }
    }

    @Test func acrossReconnectsEachCredentialResumesItsOwnWalk() async throws {
        try await Fixture.withDashboard { client, _ in
            // Each viewer reads one batch, drops, and reconnects with its token for the rest: all at once.
            let walks = try await withThrowingTaskGroup(of: (String, String, Bool).self) { group in
                for index in 0..<8 {
                    let user = Fixture.users[index % 2], table = index % 4 < 2 ? "mine" : "cookied"
                    group.addTask {
                        let first = try await Fixture.read(client, table, headers: Fixture.headers(user), batches: 1)
                        let rest = try await Fixture.read(client, table, headers: Fixture.headers(user), after: first.token)
                        return (user, first.html + rest.html, rest.reset)
                    }
                }
                var walks: [(String, String, Bool)] = []
                for try await walk in group { walks.append(walk) }
                return walks
            }
            for (user, html, reset) in walks {
                let other = Fixture.users.first { $0 != user }!
                #expect(!reset, "\(user) resumed")
                #expect(rowKeys(html) == (1...Fixture.count).map(String.init), "\(user)")
                #expect(!html.contains("row of \(other) "), "\(user): \(html)")
            }
        }
    }

    @Test func aTokenOrCursorOfOneCredentialIsRefusedForAnother() async throws {
        try await Fixture.withDashboard { client, _ in
            let alices = try await Fixture.read(client, "mine", headers: Fixture.headers("alice"), batches: 1)
            let token = try #require(alices.token)

            // Bob's credential with Alice's token: no position of his; he starts over, visibly, with his own rows.
            let bobs = try await Fixture.read(client, "mine", headers: Fixture.headers("bob"), after: token)
            #expect(bobs.reset)
            #expect(rowKeys(bobs.html) == (1...Fixture.count).map(String.init))
            #expect(!bobs.html.contains("alice"))

            // The batch refetch route: Alice's next rows for her, nothing of hers for Bob.
            let refetch = "/tables/mine/rows?after=" + queryEncoded(token)
            let hers = await client.get(refetch, headers: Fixture.headers("alice"))
            #expect(hers.status == .ok && hers.text.contains("row of alice 5"))
            let refused = await client.get(refetch, headers: Fixture.headers("bob"))
            #expect(refused.status == .badGateway && !refused.text.contains("alice"), "\(refused.status): \(refused.text)")

            // The JSON proxy: each credential its own pages; Alice's cursor with Bob's credential is a 400.
            let names = { (page: [String: Any]) in ((page["items"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String } }
            for table in ["mine", "cookied"] {
                let alice = try jsonObject(await client.get("/api/tables/\(table)/pages", headers: Fixture.headers("alice")).text)
                let bob = try jsonObject(await client.get("/api/tables/\(table)/pages", headers: Fixture.headers("bob")).text)
                #expect(names(alice) == (1...4).map { "row of alice \($0)" })
                #expect(names(bob) == (1...4).map { "row of bob \($0)" })
                let target = "/api/tables/\(table)/pages?cursor=" + queryEncoded(try #require(alice["next"] as? String))
                let more = try jsonObject(await client.get(target, headers: Fixture.headers("alice")).text)
                #expect(names(more) == (5...8).map { "row of alice \($0)" })
                let stolen = await client.get(target, headers: Fixture.headers("bob"))
                #expect(stolen.status == .badRequest && !stolen.text.contains("alice"), "\(stolen.status): \(stolen.text)")
            }
        }
    }

    @Test func aViewerWithoutTheCredentialIsRefusedOnEveryRouteAndNothingIsFetched() async throws {
        try await Fixture.withDashboard { client, upstream in
            // A session of Alice's, whose id a credential-less request names.
            let alice = try #require(await client.get("/tables/mine/stream", headers: Fixture.headers("alice")).stream)
            defer { alice.close() }
            let session = try #require(try sessionInfo(try await alice.next(named: "session").event)["session"] as? String)
            _ = try await alice.next(named: "rows")
            let before = upstream.total

            let lacking: [(String, HTTPHeaders)] = [
                ("no header", ["Cookie": "upstream_session=\(Fixture.credential("alice"))"]),
                ("an empty header", ["X-Upstream-Key": ""]),
                ("only Rowstream's session cookie", ["Cookie": "rowstream_session=\(Fixture.credential("alice"))"]),
            ]
            for (what, headers) in lacking {
                for (method, target) in [
                    ("GET", "/"), ("GET", "/tables/mine"), ("GET", "/tables/mine/stream"), ("GET", "/tables/mine/html"),
                    ("GET", "/tables/mine/rows"), ("GET", "/api/tables/mine/pages"), ("GET", "/pages/board"),
                    ("GET", "/pages/board/stream"), ("POST", "/tables/mine/sessions/\(session)/next"),
                    ("POST", "/tables/mine/sessions/\(session)/reload"), ("POST", "/tables/livemine/refresh"),
                    ("GET", "/tables/livemine/stream"),
                ] {
                    let response = method == "GET" ? await client.get(target, headers: headers)
                        : await client.post(target, headers: headers)
                    #expect(response.status == .forbidden, "\(what): \(method) \(target): \(response.status)")
                    #expect(response.text.contains("X-Upstream-Key header"), "\(what): \(target): \(response.text)")
                }
            }
            // The cookie table names its cookie.
            let noCookie = await client.get("/tables/cookied/stream", headers: ["X-Upstream-Key": Fixture.credential("bob")])
            #expect(noCookie.status == .forbidden && noCookie.text.contains("upstream_session cookie"), "\(noCookie.text)")
            #expect(upstream.total == before, "nothing was fetched for a viewer without the credential")
            #expect(upstream.withoutCredential == 0)
            // The table is still listed (the viewer may see it: it needs their credential).
            #expect(await client.get("/api/tables").text.contains("\"mine\""))
        }
    }

    @Test func hostileValuesAreRefusedAndNeverSplitAnUpstreamRequest() async throws {
        try await Fixture.withDashboard { client, upstream in
            let refusals: [(String, HTTPHeaders, String)] = [
                ("CR LF", ["X-Upstream-Key": Fixture.credential("alice") + "\r\nX-Api-Key: Key " + Fixture.credential("bob")], "mine"),
                ("LF", ["X-Upstream-Key": "x\nX-Evil: 1"], "mine"),
                ("NUL", ["X-Upstream-Key": "x\u{0}y"], "mine"),
                ("too long", ["X-Upstream-Key": String(repeating: "k", count: 4_097)], "mine"),
                ("a control in a cookie", ["Cookie": "upstream_session=a\u{1}b"], "cookied"),
                ("DEL", ["X-Upstream-Key": "a\u{7F}b"], "mine"),
            ]
            for (what, headers, table) in refusals {
                let response = await client.get("/api/tables/\(table)/pages", headers: headers)
                #expect(response.status == .forbidden, "\(what): \(response.status)")
                #expect(response.text.contains("not valid"), "\(what): \(response.text)")
                #expect(!response.text.contains("X-Evil") && !response.text.contains(Fixture.credential("bob")), "\(what)")
            }
            var twice = Fixture.headers("alice")
            twice.add(name: "X-Upstream-Key", value: Fixture.credential("bob"))
            let doubled = await client.get("/api/tables/mine/pages", headers: twice)
            #expect(doubled.status == .forbidden && doubled.text.contains("more than once"), "\(doubled.text)")
            #expect(upstream.total == 0, "no hostile value reached the upstream")

            // Characters that mean something in a query or a cookie list travel as one value, and claim nobody.
            let smuggled = "x&session=\(Fixture.credential("bob"))"
            let response = await client.get("/api/tables/cookied/pages", headers: ["Cookie": "upstream_session=\"\(smuggled)\""])
            #expect(response.status == .badGateway && !response.text.contains("row of bob"), "\(response.text)")
            #expect(upstream.seen == [smuggled])
            let spaced = await client.get("/api/tables/mine/pages", headers: ["X-Upstream-Key": "  " + Fixture.credential("bob") + " x"])
            #expect(spaced.status == .badGateway && !spaced.text.contains("row of bob"))
        }
    }

    @Test func checkingTheConfigFetchesNothingForAForwardingTable() async throws {
        let upstream = try Fixture.Upstream()
        defer { upstream.server.stop() }
        let config = try ConfigFile.parse(Array(Fixture.config(port: upstream.server.port).utf8), file: "c.json",
                                          environment: [:])
        let lines = Lock<[String]>([])
        _ = try await offPool { ConfigCheck.run(config) { line in lines.withLock { $0.append(line) } } }
        let said = lines.withLock { $0 }
        #expect(said.filter { $0.contains("not fetched: it forwards each viewer's own") }.count == 3, "\(said)")
        #expect(upstream.total == 0, "no request without a viewer's credential")
    }

    @Test func configRefusesForwardingRowstreamsOwnCredentials() throws {
        func parse(_ forward: String, access: String = "") throws -> ConfigFile {
            try ConfigFile.parse(Array("{\"tables\": [\(Fixture.table("t", port: 9, forward: forward))]\(access)}".utf8),
                                 file: "f.json", environment: [:])
        }
        for (forward, message) in [
            ("{\"headers\": {\"X-C\": \"${viewer.header.Cookie}\"}}", "never the whole Cookie header"),
            ("{\"headers\": {\"X-C\": \"${viewer.cookie.rowstream_session}\"}}", "rowstream_session is Rowstream's own session"),
            ("{\"headers\": {\"X-C\": \"${viewer.header.X Y}\"}}", "(NAME an HTTP token)"),
            ("{\"headers\": {\"X-C\": \"${viewer.password}\"}}", "not ${viewer.password}"),
            ("{\"headers\": {\"X-C\": \"$5\"}}", "after '$'"),
            ("{\"headers\": {\"X-C\": \"static\"}}", "a value with ${viewer.user}, ${viewer.header.NAME} or ${viewer.cookie.NAME}"),
            ("{\"query\": {\"q\": \"a\\r\\n${viewer.header.K}\"}}", "without CR, LF or NUL"),
        ] {
            do {
                _ = try parse(forward)
                Issue.record("accepted \(forward)")
            } catch {
                #expect("\(error)".contains(message), "\(forward): \(error)")
            }
        }
        // The viewer's Authorization: fine in mode none (nobody reads it here), refused where it is Rowstream's token.
        let authorization = "{\"headers\": {\"Authorization\": \"${viewer.header.Authorization}\"}}"
        let none = try Dashboard.inProcess(DashboardConfiguration(), config: try parse(authorization))
        none.shutdown()
        let tokens = ", \"access\": {\"mode\": \"tokens\", \"tokens\": [{\"name\": \"a\", \"sha256\": \"\(APIToken.hash("a-token"))\"}]}"
        do {
            let dashboard = try Dashboard.inProcess(DashboardConfiguration(), config: try parse(authorization, access: tokens))
            dashboard.shutdown()
            Issue.record("forwarded Rowstream's own bearer tokens upstream")
        } catch {
            #expect("\(error)".contains("table t forwards the viewer's Authorization header, which access mode tokens "
                                        + "reads as Rowstream's own API token"), "\(error)")
        }
        // The name needs a mode that names viewers; a header does not.
        do {
            let dashboard = try Dashboard.inProcess(DashboardConfiguration(),
                                                    config: try parse("{\"headers\": {\"X-U\": \"${viewer.user}\"}}"))
            dashboard.shutdown()
            Issue.record("forwarded ${viewer.user} in mode none")
        } catch {
            #expect("\(error)".contains("table t forwards the viewer's name (${viewer.user}): it needs an access mode"))
        }
        let proxy = ", \"access\": {\"mode\": \"proxy\", \"proxy\": {\"addresses\": [\"127.0.0.1\"]}}"
        #expect(throws: (any Error).self) {
            try Dashboard.inProcess(DashboardConfiguration(),
                                    config: try parse("{\"headers\": {\"X-U\": \"${viewer.header.X-Forwarded-User}\"}}",
                                                      access: proxy)).shutdown()
        }
    }
}
