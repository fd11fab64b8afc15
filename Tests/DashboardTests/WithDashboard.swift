import Dashboard
import HTTPServerTesting
import TestSupport

/// What a dashboard test's upstream is to the shared fixture: something it stops when the test ends (a
/// `FixtureServer`, a `ConfigFixtureUpstream`, a suite's own upstream over one).
protocol StoppableUpstream {
    func stop()
}

extension FixtureServer: StoppableUpstream {}
extension ConfigFixtureUpstream: StoppableUpstream {}

/// The one dashboard fixture of DashboardTests: a dashboard on 127.0.0.1 port 0, with the repository's Public/,
/// serving the config `config(upstream)` (named `file` in errors, `${VAR}` read from `environment`), `adjust` setting
/// anything else; `inProcess`: its routes answer only in-process (`dashboard.responder`). `upstream` (started by the
/// caller) and the dashboard are both stopped when `body` returns or throws.
func withDashboard<Upstream: StoppableUpstream>(
    over upstream: Upstream, config: (Upstream) throws -> String, file: String, environment: [String: String] = [:],
    inProcess: Bool = false, adjust: (inout DashboardConfiguration) -> Void = { _ in },
    _ body: (Dashboard, Upstream) async throws -> Void
) async throws {
    defer { upstream.stop() }
    let parsed = try ConfigFile.parse(Array(config(upstream).utf8), file: file, environment: environment)
    let dashboard = try startDashboard(config: parsed, inProcess: inProcess, adjust: adjust)
    defer { dashboard.shutdown() }
    try await body(dashboard, upstream)
}

/// ``withDashboard(over:config:file:environment:inProcess:adjust:_:)`` answering only in-process: `body` gets an
/// `InProcessClient` of the dashboard's routes (no socket of its own; the upstream still listens).
func withInProcessDashboard<Upstream: StoppableUpstream>(
    over upstream: Upstream, config: (Upstream) throws -> String, file: String, environment: [String: String] = [:],
    adjust: (inout DashboardConfiguration) -> Void = { _ in },
    _ body: (InProcessClient, Upstream) async throws -> Void
) async throws {
    try await withDashboard(over: upstream, config: config, file: file, environment: environment, inProcess: true,
                            adjust: adjust) { dashboard, upstream in
        try await body(InProcessClient(dashboard.responder), upstream)
    }
}
