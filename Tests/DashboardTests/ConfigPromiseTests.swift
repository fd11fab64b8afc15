import Dashboard
import Foundation
import HTTPServer
import HTTPServerTesting
import TestSupport
import Testing

/// Promises of docs/CONFIG.md that had no test (issue 12, item 8), end to end against TestSupport's fixture server,
/// whose request log shows what really reached the upstream: the `upstream` and `retry` blocks, `${VAR}` and `$$`,
/// and a `Retry-After` date.
@Suite("docs/CONFIG.md promises")
struct ConfigPromiseTests {
    /// A dashboard serving `config` (with `environment`), its upstream answering with `answer`.
    static func withDashboard(
        _ answer: @escaping @Sendable (FixtureRequest) -> FixtureReply,
        config: (FixtureServer) -> String, environment: [String: String] = [:],
        _ body: (Dashboard, FixtureServer) async throws -> Void
    ) async throws {
        try await DashboardTests.withDashboard(over: try FixtureServer(handler: answer), config: config, file: "promise.json",
                                               environment: environment, body)
    }

    /// A page of `count` items `{"id": N, "name": "item N"}` from `offset` in `{"items": [...]}`.
    static func page(offset: Int = 0, count: Int) -> FixtureReply {
        let items = (offset..<offset + count).map { "{\"id\":\($0 + 1),\"name\":\"item \($0 + 1)\"}" }
        return .json("{\"items\":[\(items.joined(separator: ","))]}")
    }

    /// Pages of 5 from the request's `offset` (12 items in all).
    static func pages(_ request: FixtureRequest) -> FixtureReply {
        let offset = Int(request.query["offset"] ?? "0") ?? 0
        return page(offset: offset, count: max(0, min(5, 12 - offset)))
    }

    /// `503` with `Retry-After: value`.
    static func unavailable(retryAfter value: String) -> FixtureReply {
        .json("{\"error\":\"busy\"}", status: 503, headers: [("Retry-After", value)])
    }

    /// A config of one table `items` over `upstream`'s `/v1/items` (offset style ending on a short page, batches
    /// of 5, no cache); `request`, `table` and `root` add members to the request, the table and the file.
    static func config(
        _ upstream: FixtureServer, request: String = "", table: String = "", root: String = ""
    ) -> String {
        """
        {"tables": [{"name": "items", "batchSize": 5,
          "request": {"url": "\(upstream.baseURL)/v1/items"\(request)},
          "items": "items", "columns": [{"path": "name"}],
          "pagination": {"style": "offset"}, "cache": {"ttlSeconds": 0, "prefetch": false}\(table)}]\(root)}
        """
    }

    /// The first event of the table's stream that is `rows` or `error`.
    static func firstOutcome(_ dashboard: Dashboard) async throws -> ReceivedEvent {
        let stream = try await SSEClient(port: dashboard.port, path: "/tables/items/stream", timeoutSeconds: 30)
        for _ in 0..<100 {
            guard let event = try await stream.next() else { break }
            if event.event == "rows" || event.event == "error" { return event }
        }
        throw TestConnection.Failure(description: "no rows and no error")
    }

    @Test("`upstream.userAgent` is what the upstream sees; `upstream.maxBodyBytes` fails a larger page")
    func upstreamBlock() async throws {
        try await Self.withDashboard({ request in
            request.query["offset"] == "5"
                ? Self.page(offset: 5, count: 100)  // about 3 KB
                : Self.pages(request)
        }, config: { Self.config($0, root: #", "upstream": {"userAgent": "promise-agent/7", "maxBodyBytes": 2048}"#) }) { dashboard, upstream in
            let stream = try await SSEClient(port: dashboard.port, path: "/tables/items/stream", timeoutSeconds: 30)
            let next = try #require(try sessionInfo(try await stream.next(named: "session").event)["next"] as? String)
            #expect(rowKeys(try await stream.next(named: "rows").event.data).count == 5)
            #expect(try await post(dashboard.port, next) == 202)
            let error = try await stream.next(named: "error").event
            #expect(error.data.contains("too large"), "\(error.data)")
            #expect(!upstream.requests.isEmpty && upstream.requests.allSatisfy { $0.header("User-Agent") == "promise-agent/7" })
        }
    }

    @Test("`retry`: attempts count every request; POST is retried only with nonIdempotent", arguments: [
        (#"{"attempts": 3, "baseDelaySeconds": 0}"#, "", "rows", 3),
        (#"{"attempts": 2, "baseDelaySeconds": 0}"#, "", "error", 2),
        (#"{"attempts": 1}"#, "", "error", 1),
        (#"{"attempts": 3, "baseDelaySeconds": 0}"#, #", "method": "POST""#, "error", 1),
        (#"{"attempts": 3, "baseDelaySeconds": 0, "nonIdempotent": true}"#, #", "method": "POST""#, "rows", 3),
    ])
    func retryBlock(retry: String, request: String, expected: String, requests: Int) async throws {
        try await Self.withDashboard({ request in
            request.number <= 2 ? .json("{}", status: 503) : Self.pages(request)
        }, config: { Self.config($0, request: request, table: #", "retry": \#(retry)"#) }) { dashboard, upstream in
            let outcome = try await Self.firstOutcome(dashboard)
            #expect(outcome.event == expected)
            #expect(upstream.requests.count == requests)
        }
    }

    @Test("`${VAR}` is replaced in url, query and body; `$$` is a literal `$` (and is not a reference)")
    func substitution() async throws {
        let environment = ["PROMISE_PATH": "items", "PROMISE_Q": "q value", "PROMISE_B": "b-value"]
        try await Self.withDashboard({ request in Self.pages(request) }, config: { upstream in
            """
            {"tables": [{"name": "items", "batchSize": 5,
              "request": {"url": "\(upstream.baseURL)/v1/${PROMISE_PATH}", "method": "POST",
                          "query": {"key": "${PROMISE_Q}", "price": "$$5", "literal": "$${PROMISE_Q}"},
                          "body": {"filter": "${PROMISE_B}", "cost": "$$9", "nested": ["x${PROMISE_B}"]}},
              "items": "items", "columns": [{"path": "name"}], "pagination": {"style": "offset"}}]}
            """
        }, environment: environment) { dashboard, upstream in
            let outcome = try await Self.firstOutcome(dashboard)
            #expect(outcome.event == "rows")
            let first = try #require(upstream.requests.first)
            #expect(first.path == "/v1/items")
            let items = URLComponents(string: "http://x/?" + first.rawQuery)?.queryItems ?? []
            let query = Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
            #expect(query["key"] == "q value" && query["price"] == "$5" && query["literal"] == "${PROMISE_Q}", "\(first.target)")
            let body = try #require(try JSONSerialization.jsonObject(with: Data(first.body)) as? [String: Any])
            #expect(body["filter"] as? String == "b-value" && body["cost"] as? String == "$9")
            #expect(body["nested"] as? [String] == ["xb-value"])
        }
    }

    /// `date` as an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    @Test("a `Retry-After` HTTP date is waited for before the retry; one past `maxRetryAfterSeconds` fails at once")
    func retryAfterDate() async throws {
        // Whole seconds (the header's resolution), at least a second ahead.
        let retryAt = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 2).rounded(.down))
        let header = Self.httpDate(retryAt)
        let retry = #", "retry": {"attempts": 3, "baseDelaySeconds": 0, "maxDelaySeconds": 0, "maxRetryAfterSeconds": 30}"#
        try await Self.withDashboard({ request in
            request.number == 1 ? Self.unavailable(retryAfter: header) : Self.pages(request)
        }, config: { Self.config($0, table: retry) }) { dashboard, upstream in
            let outcome = try await Self.firstOutcome(dashboard)
            #expect(outcome.event == "rows")
            let log = upstream.requests
            #expect(log.count == 2)
            #expect(log.count == 2 && log[1].arrived >= retryAt.addingTimeInterval(-0.01), "the retry waited for the date")
        }
        let farAway = Self.httpDate(Date().addingTimeInterval(3_600))
        try await Self.withDashboard({ request in
            request.number == 1 ? Self.unavailable(retryAfter: farAway) : Self.pages(request)
        }, config: { Self.config($0, table: retry) }) { dashboard, upstream in
            let outcome = try await Self.firstOutcome(dashboard)
            #expect(outcome.event == "error" && outcome.data.contains("503"))
            #expect(upstream.requests.count == 1, "not retried: the date is beyond maxRetryAfterSeconds")
        }
    }
}
