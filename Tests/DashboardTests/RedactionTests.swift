import Foundation
import TestSupport
import Testing

/// A secret an upstream echoes back in its error text (its request URL and headers, as sent or re-encoded)
/// reaches no client in any form: not the JSON proxy's 502, not the stream's `error` event (docs/HARDENING.md,
/// "Secrets in every encoding").
@Suite("Redaction of echoed secrets")
struct RedactionTests {
    /// Needs percent-encoding in a query (`+ / = & space`), has a space for `+`, and a distinctive middle.
    static let secret = "s3cr3t+T0ken/with=chars&x y"

    /// A config whose `things` table calls the fixture's echo with the secret in its query and its header.
    private func echo(_ config: String) -> String {
        config.replacingOccurrences(
            of: #"/v1/things", "headers""#,
            with: #"/v1/echo-all", "query": {"api_key": "${FIXTURE_TOKEN}"}, "headers""#
        ).replacingOccurrences(of: "\"cache\": {", with: "\"checks\": {\"errorPath\": \"error\"}, \"cache\": {")
    }

    /// Every form of the secret a leak would show: its distinctive middle (plain, JSON- or percent-encoded
    /// around it) and its base64 spellings.
    private func leaks(_ text: String) -> [String] {
        let base64 = Data("Bearer \(Self.secret)".utf8).base64EncodedString()
        let forms = ["T0ken", "with%3D", "with%3d", String(base64.dropFirst(12).prefix(16))]
        return forms.filter { text.contains($0) }
    }

    @Test("the fixture echoes the secret in every form (else the test below proves nothing)")
    func theFixtureEchoesTheSecret() async throws {
        try await withConfigDashboard(count: 5, secret: Self.secret, token: "unused", edit: echo) { _, upstream in
            let raw = try await fetch(upstream.port, "GET", "/v1/echo-all?api_key=s3cr3t%2BT0ken%2Fwith%3Dchars%26x%20y",
                                      headers: ["Authorization": "Bearer \(Self.secret)"])
            #expect(leaks(raw.body).count == 4, "\(raw.body)")
        }
    }

    @Test("the JSON proxy's 502 and the stream's error event show the upstream's text with every form redacted")
    func echoedSecretsAreRedactedInEveryForm() async throws {
        try await withConfigDashboard(count: 5, secret: Self.secret, token: "unused", edit: echo) { dashboard, _ in
            let proxied = try await fetch(dashboard.port, "GET", "/api/tables/things/pages")
            #expect(proxied.status == 502)
            #expect(proxied.body.contains("no access for GET /v1/echo-all?"), "the upstream's text is shown: \(proxied.body)")
            #expect(proxied.body.contains("api_key=[redacted]") && proxied.body.contains("Bearer [redacted]"), "\(proxied.body)")
            #expect(leaks(proxied.body).isEmpty, "\(proxied.body)")

            let stream = try await SSEClient(port: dashboard.port, path: "/tables/things/stream")
            let error = try await stream.next(named: "error").event
            #expect(error.data.contains("[redacted]"))
            #expect(leaks(error.data).isEmpty, "\(error.data)")
        }
    }
}
