import Dashboard
import Foundation
import HTTPServer
import HTTPServerTesting
import RowstreamKit
import Locking
import TestSupport
import Testing

/// A table that forwards the viewer upstream (`"forward"`, docs/SECURITY.md "Each viewer's own upstream
/// credentials"), in-process, over a fixture upstream that answers per user: each viewer sees only their own rows,
/// across reconnects and through the JSON proxy, and viewers of one user still share each page's one fetch.
@Suite struct ViewerForwardingTests {
    static let users = ["alice", "bob"]
    static let count = 12
    static let batchSize = 4

    /// `GET /v1/rows?offset=&limit=` over `count` items tagged with the `X-User` the request carried (403 without
    /// one); counts the requests per user and offset.
    final class Upstream: StoppableUpstream, Sendable {
        final class Tally: Sendable {
            let counts = Lock<[String: Int]>([:])
        }

        let server: FixtureServer
        func stop() { server.stop() }
        private let tally = Tally()

        init() throws {
            let counts = tally
            server = try FixtureServer { request in
                guard let user = request.header("X-User"), !user.isEmpty else {
                    return .json("{\"error\":\"who are you?\"}", status: 403)
                }
                let offset = Int(request.query["offset"] ?? "0") ?? 0
                let limit = Int(request.query["limit"] ?? "10") ?? 10
                counts.counts.withLock { $0["\(user) \(offset)", default: 0] += 1 }
                let items = (offset..<min(ViewerForwardingTests.count, offset + limit)).map { index in
                    "{\"id\": \(index + 1), \"name\": \"row of \(user) \(index + 1)\"}"
                }
                return .json("{\"results\": [\(items.joined(separator: ","))], \"total\": \(ViewerForwardingTests.count)}")
            }
        }

        /// Requests so far: "user offset" to how many.
        var requests: [String: Int] { tally.counts.withLock { $0 } }
    }

    static func config(port: UInt16, access: String = "", extra: String = "") -> String {
        let tokens = users.map { "{\"name\": \"\($0)\", \"sha256\": \"\(APIToken.hash($0 + "-token"))\"}" }
        return """
        {"tables": [{"name": "mine", "batchSize": \(batchSize),
          "request": {"url": "http://127.0.0.1:\(port)/v1/rows"},
          "forward": {"headers": {"X-User": "${viewer.user}"}},
          "items": "results", "key": "id",
          "columns": [{"title": "ID", "path": "id", "format": "number"}, {"title": "Name", "path": "name"}],
          "pagination": {"style": "offset", "totalPath": "total"},
          "cache": {"ttlSeconds": 600, "prefetch": false}\(extra)}],
          "pages": [{"name": "board", "tables": ["mine"]}]
          \(access.isEmpty ? ", \"access\": {\"mode\": \"tokens\", \"tokens\": [\(tokens.joined(separator: ","))]}" : access)}
        """
    }

    static func headers(_ user: String, _ more: [(String, String)] = []) -> HTTPHeaders {
        var headers: HTTPHeaders = ["Authorization": "Bearer \(user)-token"]
        for (name, value) in more { headers.add(name: name, value: value) }
        return headers
    }

    /// Runs `body` over a dashboard serving `config(port:)` in-process; both are stopped after.
    static func withDashboard(_ body: (InProcessClient, Upstream) async throws -> Void) async throws {
        try await withInProcessDashboard(over: try Upstream(), config: { config(port: $0.server.port) }, file: "forward.json", body)
    }

    /// One viewer reading the whole table as `user` (asking for each next batch as the page would): every row's HTML.
    static func readAll(_ client: InProcessClient, as user: String) async throws -> String {
        let response = await client.get("/tables/mine/stream", headers: headers(user))
        let stream = try #require(response.stream, "\(response.status): \(response.text)")
        defer { stream.close() }
        let session = try #require(try sessionInfo(try await stream.next(named: "session").event)["session"] as? String)
        var html = ""
        while let event = try await stream.nextEvent(timeout: .seconds(60)) {
            if event.event == "rows" {
                html += event.data
                let next = await client.post("/tables/mine/sessions/\(session)/next", headers: headers(user))
                #expect(next.status.code < 300 || next.status == .notFound, "\(next.status)")
            }
            if event.event == "complete" { break }
            if event.event == "error" { Issue.record("\(user): \(event.data)") }
        }
        return html
    }

    @Test func twoUsersStormsAtOnceEachSeeOnlyTheirOwnRowsAndShareOneFetchPerPage() async throws {
        try await Self.withDashboard { client, upstream in
            // Three viewers of each user, interleaved, at once.
            let viewers = (0..<6).map { Self.users[$0 % 2] }
            let pages = try await withThrowingTaskGroup(of: (String, String).self) { group in
                for user in viewers { group.addTask { (user, try await Self.readAll(client, as: user)) } }
                var pages: [(String, String)] = []
                for try await page in group { pages.append(page) }
                return pages
            }
            #expect(pages.count == 6)
            for (user, html) in pages {
                let other = Self.users.first { $0 != user }!
                #expect(rowKeys(html) == (1...Self.count).map(String.init), "\(user)")
                #expect(html.contains("row of \(user) ") && !html.contains("row of \(other) "), "\(user): \(html)")
            }
            // Per identity, one request per page however many viewers: coalescing and the cache still work.
            let expected = Dictionary(uniqueKeysWithValues: Self.users.flatMap { user in
                stride(from: 0, to: Self.count, by: Self.batchSize).map { ("\(user) \($0)", 1) }
            })
            #expect(upstream.requests == expected)
        }
    }

    @Test func aResumeTokenResumesForItsViewerAndStartsOverForAnother() async throws {
        try await Self.withDashboard { client, _ in
            let first = await client.get("/tables/mine/stream", headers: Self.headers("alice"))
            let stream = try #require(first.stream)
            let rows = try await stream.next(named: "rows").event
            stream.close()
            #expect(rows.data.contains("row of alice 1"))
            let token = try #require(rows.id)

            // Alice reconnects with it: the rows after it, hers.
            let again = await client.get("/tables/mine/stream", headers: Self.headers("alice", [("Last-Event-ID", token)]))
            let resumed = try #require(again.stream)
            defer { resumed.close() }
            let session = try #require(try sessionInfo(try await resumed.next(named: "session").event)["session"] as? String)
            _ = await client.post("/tables/mine/sessions/\(session)/next", headers: Self.headers("alice"))
            let (next, skipped) = try await resumed.next(named: "rows")
            #expect(!skipped.contains { $0.event == "reset" })
            #expect(rowKeys(next.data) == ["5", "6", "7", "8"] && next.data.contains("row of alice 5"))

            // Bob replays Alice's token: no position of his; he starts over, visibly, with his own rows.
            let replay = await client.get("/tables/mine/stream", headers: Self.headers("bob", [("Last-Event-ID", token)]))
            let replayed = try #require(replay.stream)
            defer { replayed.close() }
            let (bobs, before) = try await replayed.next(named: "rows")
            #expect(before.contains { $0.event == "reset" })
            #expect(rowKeys(bobs.data) == ["1", "2", "3", "4"])
            #expect(bobs.data.contains("row of bob 1") && !bobs.data.contains("alice"))

            // The same token on the batch refetch route: Alice's next rows for her, nothing of hers for Bob.
            let refetch = "/tables/mine/rows?after=" + queryEncoded(token)
            let hers = await client.get(refetch, headers: Self.headers("alice"))
            #expect(hers.status == .ok && rowKeys(hers.text) == ["5", "6", "7", "8"] && hers.text.contains("row of alice 5"))
            let refused = await client.get(refetch, headers: Self.headers("bob"))
            #expect(refused.status == .badGateway && !refused.text.contains("alice"), "\(refused.status): \(refused.text)")
        }
    }

    @Test func theNoScriptPageAndAPageStreamShowEachViewerTheirOwnRows() async throws {
        try await Self.withDashboard { client, _ in
            for user in Self.users {
                let other = Self.users.first { $0 != user }!
                let html = await client.get("/tables/mine/html", headers: Self.headers(user))
                let body = String(decoding: try await #require(html.stream).readToEnd(timeout: .seconds(60)), as: UTF8.self)
                #expect(body.contains("row of \(user) 1") && !body.contains("row of \(other)"), "\(user)")
                let page = try #require(await client.get("/pages/board/stream", headers: Self.headers(user)).stream)
                defer { page.close() }
                let rows = try await page.next(named: "mine:rows").event.data
                #expect(rows.contains("row of \(user) 1") && !rows.contains("row of \(other)"), "\(user)")
            }
        }
    }

    @Test func anExportHoldsTheViewersOwnRowsAndNoOneElses() async throws {
        try await Self.withDashboard { client, upstream in
            for user in Self.users {
                let other = Self.users.first { $0 != user }!
                for format in ["csv", "ndjson"] {
                    let answer = await client.get("/tables/mine/export.\(format)", headers: Self.headers(user))
                    let body = String(decoding: try await #require(answer.stream).readToEnd(timeout: .seconds(60)), as: UTF8.self)
                    #expect(answer.status == .ok)
                    for index in 1...Self.count { #expect(body.contains("row of \(user) \(index)"), "\(user) \(format)") }
                    #expect(!body.contains(other) && !body.contains("stopped"), "\(user) \(format): \(body)")
                }
            }
            #expect(await client.get("/tables/mine/export.csv").status == .unauthorized)
            // Each user's pages were fetched once for the two files: the viewer's own cache.
            #expect(upstream.requests.values.allSatisfy { $0 == 1 }, "\(upstream.requests)")
        }
    }

    @Test func theJSONProxyAnswersEachViewerWithTheirOwnPagesAndRefusesAnotherViewersCursor() async throws {
        try await Self.withDashboard { client, _ in
            let alice = try jsonObject(await client.get("/api/tables/mine/pages", headers: Self.headers("alice")).text)
            let bob = try jsonObject(await client.get("/api/tables/mine/pages", headers: Self.headers("bob")).text)
            let names = { (page: [String: Any]) in ((page["items"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String } }
            #expect(names(alice) == (1...4).map { "row of alice \($0)" })
            #expect(names(bob) == (1...4).map { "row of bob \($0)" })
            let cursor = try #require(alice["next"] as? String)
            let target = "/api/tables/mine/pages?cursor=" + queryEncoded(cursor)
            let more = try jsonObject(await client.get(target, headers: Self.headers("alice")).text)
            #expect(names(more) == (5...8).map { "row of alice \($0)" })
            let stolen = await client.get(target, headers: Self.headers("bob"))
            #expect(stolen.status == .badRequest, "\(stolen.status): \(stolen.text)")
            #expect(!stolen.text.contains("alice"))
        }
    }

    @Test func forwardingTheNameNeedsAViewerNamingAccessMode() throws {
        // Parses, but no server starts without an access mode that names viewers.
        let open = try ConfigFile.parse(Array(Self.config(port: 9, access: ", \"access\": \"none\"").utf8),
                                        file: "forward.json", environment: [:])
        for access in [open, try ConfigFile.parse(Array(Self.config(port: 9, access: " ").utf8), file: "forward.json",
                                                  environment: [:])] {
            do {
                let dashboard = try Dashboard.inProcess(DashboardConfiguration(), config: access)
                dashboard.shutdown()
                Issue.record("started without a viewer-naming access mode")
            } catch {
                #expect("\(error)".contains("table mine forwards the viewer's name (${viewer.user}): it needs an access mode"), "\(error)")
            }
        }
        let noPlaceholder = Self.config(port: 9).replacingOccurrences(of: "\"${viewer.user}\"", with: "\"alice\"")
        do {
            _ = try ConfigFile.parse(Array(noPlaceholder.utf8), file: "forward.json", environment: [:])
            Issue.record("accepted a forward without ${viewer.user}")
        } catch {
            #expect(error.description.hasPrefix("forward.json: tables[0].forward.headers.X-User: a value with ${viewer.user}"), "\(error)")
        }
    }
}
