import Dashboard
import Foundation
import HTTPServerTesting
import TestSupport

/// Starts a real dashboard on 127.0.0.1 port 0 against the demo upstream, with the repository's Public/;
/// `demo` sets the demo's other options (controls, page, bench stamps, ...). `inProcess`: the dashboard's own
/// routes answer only in-process (`InProcessClient(dashboard.responder)`, no port); the demo upstream still listens.
func startDashboard(
    inProcess: Bool = false,
    items: Int = 95,
    batchSize: Int = 10,
    latencyMilliseconds: Int = 0,
    failEvery: Int? = nil,
    heartbeatSeconds: Int = 15,
    demo: (inout DemoUpstream.Configuration) -> Void = { _ in }
) throws -> Dashboard {
    var configuration = DashboardConfiguration()
    configuration.server.port = 0
    configuration.server.eventLoopCount = 2
    configuration.batchSize = batchSize
    configuration.demo.itemCount = items
    configuration.demo.latency = .milliseconds(latencyMilliseconds)
    configuration.demo.failEvery = failEvery
    configuration.server.heartbeatInterval = .seconds(heartbeatSeconds)
    configuration.server.publicDirectory = publicDirectory
    demo(&configuration.demo)
    return inProcess ? try Dashboard.inProcess(configuration) : try Dashboard.start(configuration)
}

/// Starts a real dashboard on 127.0.0.1 port 0 serving `config`'s tables, with the repository's Public/;
/// `adjust` sets anything else. `inProcess`: its routes answer only in-process (`InProcessClient(dashboard.responder)`).
/// Most tests want it with its upstream and a stop at the end: `withDashboard(over:config:file:...)` (WithDashboard.swift).
func startDashboard(config: ConfigFile, inProcess: Bool = false,
                    adjust: (inout DashboardConfiguration) -> Void = { _ in }) throws -> Dashboard {
    var configuration = DashboardConfiguration()
    configuration.server.port = 0
    configuration.server.eventLoopCount = 2
    configuration.server.publicDirectory = publicDirectory
    adjust(&configuration)
    return inProcess ? try Dashboard.inProcess(configuration, config: config) : try Dashboard.start(configuration, config: config)
}

/// The repository's Public/ folder.
let publicDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Public").path

/// The `session` event's JSON as a dictionary.
func sessionInfo(_ event: ReceivedEvent) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(event.data.utf8))
    guard let dictionary = object as? [String: Any] else {
        throw TestConnection.Failure(description: "session data is not an object: \(event.data)")
    }
    return dictionary
}

/// POSTs to a session URL; returns the status.
func post(_ port: Int, _ path: String) async throws -> Int {
    try await fetch(port, "POST", path).status
}
