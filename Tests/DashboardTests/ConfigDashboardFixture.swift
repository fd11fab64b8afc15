import Dashboard
import Foundation
import HTTPServerTesting
import TestSupport

/// The config-driven dashboard the config tests share: a dashboard from the fixture's config (`edit` may change
/// its text) over a ``ConfigFixtureUpstream`` that accepts `token`; the config's `${FIXTURE_TOKEN}` is always
/// `secret`. Both are stopped when `body` returns or throws.
func withConfigDashboard(
    count: Int = 23, secret: String, token: String, edit: (String) -> String = { $0 },
    _ body: (Dashboard, ConfigFixtureUpstream) async throws -> Void
) async throws {
    try await withDashboard(over: try ConfigFixtureUpstream(count: count, token: token), config: { edit($0.config()) },
                            file: "fixture.json", environment: ["FIXTURE_TOKEN": secret], body)
}

/// A JSON response body as an object.
func jsonObject(_ body: String) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else {
        throw TestConnection.Failure(description: "not a JSON object: \(body)")
    }
    return object
}

/// `text` percent-encoded for a query value (everything but letters and digits).
func queryEncoded(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
}
