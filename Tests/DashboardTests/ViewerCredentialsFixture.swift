import Dashboard
import Foundation
import HTTPServer
import HTTPServerTesting
import RowstreamKit
import Locking
import TestSupport
import Testing

/// A dashboard (access mode `none`) whose tables forward each viewer's own credential upstream (docs/SECURITY.md, "Each
/// viewer's own upstream credentials"), over a fixture upstream that answers per credential: `mine` forwards the
/// viewer's `X-Upstream-Key` header as `X-Api-Key: Key VALUE`, `cookied` the viewer's `upstream_session` cookie as
/// `?session=VALUE`, `livemine` (live, POST refresh only, at most 2 identities' feeds) the header as `mine` does.
enum ViewerCredentials {
    static let users = ["alice", "bob"]
    /// Everyone the upstream knows: the users, and one more for a third identity.
    static let known = users + ["carol"]
    static let count = 12
    static let batchSize = 4

    /// The credential of `user` (what the upstream knows them by).
    static func credential(_ user: String) -> String { "cred-\(user)-7f3a" }

    /// `GET /v1/rows?offset=&limit=`: `count` items of the user whose credential the request carries (`X-Api-Key:
    /// Key CRED` or `?session=CRED`), preceded by `version(user)` newer ones for live tables; 401 for a credential it
    /// does not know. Counts requests per "user offset", and every request that came without a credential.
    final class Upstream: StoppableUpstream, Sendable {
        private struct State {
            var counts: [String: Int] = [:]
            var versions: [String: Int] = [:]
            var withoutCredential = 0
            var seen: [String] = []
        }

        private final class Box: Sendable {
            let state = Lock(State())
        }

        let server: FixtureServer
        func stop() { server.stop() }
        private let box = Box()

        init() throws {
            let box = box
            server = try FixtureServer { request in
                let header = request.header("X-Api-Key")
                let presented = header.map { $0.hasPrefix("Key ") ? String($0.dropFirst(4)) : "" } ?? request.query["session"]
                guard let presented, !presented.isEmpty, presented != "Key" else {
                    box.state.withLock { $0.withoutCredential += 1 }
                    return .json("{\"error\": \"no credential\"}", status: 400)
                }
                box.state.withLock { $0.seen.append(presented) }
                guard let user = ViewerCredentials.known.first(where: { ViewerCredentials.credential($0) == presented }) else {
                    return .json("{\"error\": \"unknown credential\"}", status: 401)
                }
                let offset = Int(request.query["offset"] ?? "0") ?? 0
                let limit = Int(request.query["limit"] ?? "10") ?? 10
                let version = box.state.withLock { state in
                    state.counts["\(user) \(offset)", default: 0] += 1
                    return state.versions[user, default: 0]
                }
                let newer = (0..<version).reversed().map { "{\"id\": \"n\($0 + 1)\", \"name\": \"new of \(user) \($0 + 1)\"}" }
                let rows = (0..<ViewerCredentials.count).map { "{\"id\": \"\($0 + 1)\", \"name\": \"row of \(user) \($0 + 1)\"}" }
                let all = newer + rows
                let items = all[min(offset, all.count)..<min(all.count, offset + limit)]
                return .json("{\"results\": [\(items.joined(separator: ","))], \"total\": \(all.count)}")
            }
        }

        /// Requests so far: "user offset" to how many.
        var requests: [String: Int] { box.state.withLock { $0.counts } }
        /// Requests that came with no credential at all (never, if the dashboard refuses such viewers).
        var withoutCredential: Int { box.state.withLock { $0.withoutCredential } }
        /// Every credential presented, in order.
        var seen: [String] { box.state.withLock { $0.seen } }
        /// Every request so far.
        var total: Int { server.requests.count }

        /// One newer item at the head of `user`'s list.
        func bump(_ user: String) { box.state.withLock { $0.versions[user, default: 0] += 1 } }
    }

    static func table(_ name: String, port: UInt16, forward: String, extra: String = "") -> String {
        """
        {"name": "\(name)", "batchSize": \(batchSize),
         "request": {"url": "http://127.0.0.1:\(port)/v1/rows"},
         "forward": \(forward),
         "items": "results", "key": "id",
         "columns": [{"title": "ID", "path": "id"}, {"title": "Name", "path": "name"}],
         "pagination": {"style": "offset", "totalPath": "total"},
         "cache": {"ttlSeconds": 600, "prefetch": false}\(extra)}
        """
    }

    static func config(port: UInt16) -> String {
        let header = "{\"headers\": {\"X-Api-Key\": \"Key ${viewer.header.X-Upstream-Key}\"}}"
        return """
        {"tables": [\(table("mine", port: port, forward: header)),
                    \(table("cookied", port: port, forward: "{\"query\": {\"session\": \"${viewer.cookie.upstream_session}\"}}")),
                    \(table("livemine", port: port, forward: header, extra: ", \"live\": {\"maxPartitions\": 2}"))],
         "pages": [{"name": "board", "tables": ["mine", "cookied"]}]}
        """
    }

    /// What `user`'s browser sends: the header and the cookie (beside another cookie and a Rowstream session cookie).
    static func headers(_ user: String, _ more: [(String, String)] = []) -> HTTPHeaders {
        var headers: HTTPHeaders = [
            "X-Upstream-Key": credential(user),
            "Cookie": "theme=dark; upstream_session=\(credential(user)); rowstream_session=not-forwarded",
        ]
        for (name, value) in more { headers.add(name: name, value: value) }
        return headers
    }

    /// Runs `body` over a dashboard serving `config(port:)` in-process; both are stopped after.
    static func withDashboard(_ body: (InProcessClient, Upstream) async throws -> Void) async throws {
        try await withInProcessDashboard(over: try Upstream(), config: { config(port: $0.server.port) }, file: "credentials.json", body)
    }

    /// One viewer reading the whole of `table` with `headers` (asking for each next batch as the page would),
    /// starting after `token` if given: every row's HTML, and the last token.
    static func read(_ client: InProcessClient, _ table: String, headers: HTTPHeaders, after token: String? = nil,
                     batches: Int = .max) async throws -> (html: String, token: String?, reset: Bool) {
        var headers = headers
        if let token { headers.add(name: "Last-Event-ID", value: token) }
        let response = await client.get("/tables/\(table)/stream", headers: headers)
        let stream = try #require(response.stream, "\(response.status): \(response.text)")
        defer { stream.close() }
        let (opened, _) = try await stream.next(named: "session")
        let session = try #require(try sessionInfo(opened)["session"] as? String)
        var html = "", last = token, reset = false, read = 0
        if token != nil { _ = await client.post("/tables/\(table)/sessions/\(session)/next", headers: headers) }
        while read < batches, let event = try await stream.nextEvent(timeout: .seconds(60)) {
            switch event.event {
            case "rows":
                html += event.data
                last = event.id ?? last
                read += 1
                if read < batches {
                    let next = await client.post("/tables/\(table)/sessions/\(session)/next", headers: headers)
                    #expect(next.status.code < 300 || next.status == .notFound, "\(next.status)")
                }
            case "reset": reset = true
            case "complete": return (html, last, reset)
            case "error": Issue.record("\(table): \(event.data)")
            default: break
            }
        }
        return (html, last, reset)
    }
}
