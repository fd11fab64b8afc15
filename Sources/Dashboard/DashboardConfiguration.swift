import Foundation
import RowstreamKit

/// Everything the dashboard needs to start. A value: build it, then hand it to `Dashboard.start(_:)`.
public struct DashboardConfiguration: Sendable {
    /// Address and port the dashboard listens on (port 0: any free port, see `Dashboard.port`).
    public var host = "127.0.0.1"
    public var port = 8080
    /// The folder holding index.html (the page template), app.css and app.js.
    public var publicDirectory = "Public"
    /// Rows per batch: one upstream page per batch.
    public var batchSize = 50
    /// The built-in demo upstream, served on 127.0.0.1 on a port of its own.
    public var demo = DemoUpstream.Configuration()
    /// The `retry:` hint sent at the start of every event stream.
    public var retryMilliseconds = 2_000
    /// Heartbeat comment interval on open event streams.
    public var heartbeatInterval: Duration = .seconds(15)
    /// How long a viewer may leave sent bytes unacknowledged before its stream is closed (nil: kernel defaults).
    public var deadPeerTimeout: Duration? = .seconds(30)
    /// Most connections open at once; nil: the open-file limit less a reserve.
    public var maxConnections: Int? = nil
    /// Most connections open at once from one client address.
    public var maxConnectionsPerAddress = 4_096
    /// How long a single batch may take before it fails as timed out (retryable).
    public var batchTimeout: Duration = .seconds(30)
    /// Event loops of the HTTP server; nil: one per core.
    public var eventLoopCount: Int? = nil

    public init() {}

    /// Finds Public/ when no folder was given: the working directory first, then beside the package that built
    /// the executable (`.build/<config>/rowstream` -> `../../Public`).
    public static func defaultPublicDirectory(executablePath: String = CommandLine.arguments[0]) -> String {
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: "Public/index.html") { return "Public" }
        let executable = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("Public")
            if fileManager.fileExists(atPath: candidate.appendingPathComponent("index.html").path) {
                return candidate.path
            }
            folder = folder.deletingLastPathComponent()
        }
        return "Public"
    }
}

extension DashboardConfiguration {
    /// The library server's share of this configuration.
    var server: ServerConfiguration {
        var server = ServerConfiguration()
        server.host = host
        server.port = port
        server.publicDirectory = publicDirectory
        server.retryMilliseconds = retryMilliseconds
        server.heartbeatInterval = heartbeatInterval
        server.batchTimeout = batchTimeout
        server.deadPeerTimeout = deadPeerTimeout
        server.eventLoopCount = eventLoopCount
        server.maxConnections = maxConnections
        server.maxConnectionsPerAddress = maxConnectionsPerAddress
        return server
    }
}
