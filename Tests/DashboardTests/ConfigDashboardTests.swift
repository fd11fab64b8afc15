import Dashboard
import Foundation
import TestSupport
import Testing

/// A dashboard started from a config file, against a fixture upstream: the stream, the JSON proxy and its
/// sealed cursors, and secrets that never reach a client.
@Suite("Config-driven dashboard")
struct ConfigDashboardTests {
    static let secret = "fixture-secret-4711"

    /// A dashboard from the fixture's config (`edit` may change its text) over a fixture upstream that accepts
    /// `token`; the config's `${FIXTURE_TOKEN}` is always `secret`.
    private func withDashboard(
        count: Int = 23, token: String = secret, edit: (String) -> String = { $0 },
        _ body: (Dashboard, ConfigFixtureUpstream) async throws -> Void
    ) async throws {
        try await withConfigDashboard(count: count, secret: Self.secret, token: token, edit: edit, body)
    }

    @Test("the stream delivers every item once (offset drift dropped by key), big ids exact, then complete")
    func streamEveryItemOnce() async throws {
        try await withDashboard { dashboard, _ in
            let tables = try await fetch(dashboard.port, "GET", "/api/tables")
            #expect(tables.body.contains("\"things\"") && tables.body.contains("\"others\""))
            #expect(!tables.body.contains(Self.secret) && !tables.body.contains("/v1/things"))

            let stream = try await SSEClient(port: dashboard.port, path: "/tables/things/stream")
            let session = try sessionInfo(try await stream.next(named: "session").event)
            let next = try #require(session["next"] as? String)
            var keys: [String] = []
            var html = ""
            var completed = false
            for _ in 0..<12 {
                guard let event = try await stream.next() else { break }
                if event.event == "rows" {
                    keys += rowKeys(event.data)
                    html += event.data
                    // Demand is accepted while rows remain (docs/PROTOCOL.md: 202).
                    if keys.count < 23 { #expect(try await post(dashboard.port, next) == 202) }
                }
                completed = event.event == "complete"
                if event.event == "complete" || event.event == "error" { break }
            }
            #expect(completed)
            // Once `complete` is sent the session ends: its `next` URL answers 204, session ended (docs/PROTOCOL.md).
            #expect(try await ProtocolPromiseTests.postUntil(dashboard.port, next, answers: 204) == 204)
            let expected = ["1", "2", "3", ConfigFixtureUpstream.bigID] + (5...23).map(String.init)
            #expect(keys == expected)
            #expect(html.contains("12,345,678,901,234,567,890,123"), "the big id is shown exactly")
            #expect(!html.contains(Self.secret))
        }
    }

    @Test("the JSON proxy walks the list with sealed cursors; altered or foreign cursors are refused")
    func proxyWithSealedCursors() async throws {
        try await withDashboard { dashboard, _ in
            let first = try await fetch(dashboard.port, "GET", "/api/tables/things/pages")
            #expect(first.status == 200)
            let page = try #require(try JSONSerialization.jsonObject(with: Data(first.body.utf8)) as? [String: Any])
            let next = try #require(page["next"] as? String)
            #expect(page["done"] as? Bool == false)
            #expect((page["items"] as? [Any])?.count == 5)
            #expect(next != "5", "the cursor is opaque")

            let encoded = next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? next
            let second = try await fetch(dashboard.port, "GET", "/api/tables/things/pages?cursor=\(encoded)")
            #expect(second.status == 200)
            #expect(second.body.contains("\"thing 6\""))

            let foreign = try await fetch(dashboard.port, "GET", "/api/tables/others/pages?cursor=\(encoded)")
            #expect(foreign.status == 400, "a cursor of one table is refused by another")
            let altered = try await fetch(dashboard.port, "GET", "/api/tables/things/pages?cursor=A\(encoded)")
            #expect(altered.status == 400)
            let forged = try await fetch(dashboard.port, "GET", "/api/tables/things/pages?cursor=http%3A%2F%2Fevil.example%2F")
            #expect(forged.status == 400)
        }
    }

    @Test("an upstream failure is an error event in the page, with no secret in it")
    func upstreamFailureIsAnErrorEvent() async throws {
        try await withDashboard(count: 5, token: "the-right-one") { dashboard, _ in
            let stream = try await SSEClient(port: dashboard.port, path: "/tables/things/stream")
            let error = try await stream.next(named: "error").event
            #expect(error.data.contains("the upstream answered HTTP 403"))
            #expect(!error.data.contains(Self.secret))
        }
    }

    @Test("a secret the upstream echoes in an error is redacted before it reaches a client")
    func echoedSecretsAreRedacted() async throws {
        let echo: (String) -> String = {
            $0.replacingOccurrences(of: "/v1/things\", \"headers", with: "/v1/echo\", \"headers")
                .replacingOccurrences(of: "\"cache\": {", with: "\"checks\": {\"errorPath\": \"error\"}, \"cache\": {")
        }
        try await withDashboard(count: 5, edit: echo) { dashboard, _ in
            let proxied = try await fetch(dashboard.port, "GET", "/api/tables/things/pages")
            #expect(proxied.status == 502)
            #expect(proxied.body.contains("token not valid: Bearer [redacted]"), "\(proxied.body)")
            let stream = try await SSEClient(port: dashboard.port, path: "/tables/things/stream")
            let error = try await stream.next(named: "error").event
            #expect(error.data.contains("[redacted]") && !error.data.contains(Self.secret))
        }
    }

    @Test("a forged resume token starts the viewer over instead of reaching the upstream with it")
    func forgedResumeTokenResets() async throws {
        try await withDashboard { dashboard, _ in
            let payload = Data(#"{"c":"999","o":5,"p":"a","t":"things"}"#.utf8).base64EncodedString()
                .replacingOccurrences(of: "=", with: "")
            let stream = try await SSEClient(port: dashboard.port, path: "/tables/things/stream", lastEventID: "v1." + payload)
            _ = try await stream.next(named: "session")
            let (rows, skipped) = try await stream.next(named: "rows")
            #expect(skipped.contains { $0.event == "reset" })
            #expect(rowKeys(rows.data).first == "1")
        }
    }
}
