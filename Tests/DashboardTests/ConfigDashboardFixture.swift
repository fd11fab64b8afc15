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
    let upstream = try ConfigFixtureUpstream(count: count, token: token)
    defer { upstream.stop() }
    let config = try ConfigFile.parse(Array(edit(upstream.config()).utf8), file: "fixture.json",
                                      environment: ["FIXTURE_TOKEN": secret])
    let dashboard = try startDashboard(config: config)
    defer { dashboard.shutdown() }
    try await body(dashboard, upstream)
}

/// Runs `body` with an in-process client (no socket) of a dashboard serving the config `text` (named `file` in
/// errors); the dashboard is stopped when `body` returns or throws.
func withInProcessDashboard(config text: String, file: String, _ body: (InProcessClient) async throws -> Void)
    async throws
{
    let config = try ConfigFile.parse(Array(text.utf8), file: file, environment: [:])
    var configuration = DashboardConfiguration()
    configuration.server.port = 0
    configuration.server.eventLoopCount = 2
    let dashboard = try Dashboard.inProcess(configuration, config: config)
    defer { dashboard.shutdown() }
    try await body(InProcessClient(dashboard.responder))
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
