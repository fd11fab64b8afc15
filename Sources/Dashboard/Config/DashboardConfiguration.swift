import RowstreamKit
import Upstream

/// Everything the dashboard needs to start: the library's ``ServerConfiguration`` (address, `Public/`, stream
/// pacing, connection limits; the one configuration type of both) and the dashboard's own knobs. A value: build
/// it, then hand it to `Dashboard.start(_:)`.
///
/// Thread-safe: a value type, `Sendable`.
public struct DashboardConfiguration: Sendable {
    /// How the server listens and paces its streams (port 0: any free port, see `Dashboard.port`).
    public var server = ServerConfiguration()
    /// Rows per batch: one upstream page per batch.
    public var batchSize = 50
    /// The built-in demo upstream, served on 127.0.0.1 on a port of its own.
    public var demo = DemoUpstream.Configuration()
    /// The sealing key file (`--secret-file`, `ROWSTREAM_SECRET_FILE`; docs/SCALING.md): read at start into
    /// `server.sealingKeys`, before the config's `secretFile`. nil: the config's, else `server.sealingKeys` as set.
    public var secretFile: String?
    /// The Redis the instances of a cluster share pages through (docs/SCALING.md); nil: this instance alone, as
    /// before. The config file's `redis` key is used when this is nil.
    public var redis: RedisURL?
    /// The longest a Redis command may take before the instance serves without it (a slow Redis is a down one).
    public var redisCommandTimeout: Duration = .milliseconds(500)
    /// How long an instance's lease to fetch a shared page lasts unless it renews it (every third of it while the
    /// fetch lasts): an instance that dies fetching holds the others up this long at most (docs/SCALING.md).
    public var sharedLeaseTime: Duration = SharedPages.defaultLeaseTime
    /// `--frame-ancestors`: before the config's `frameAncestors`; nil: the config's, else `server.frameAncestors`.
    public var frameAncestors: [String]?
    /// `--allowed-origins`: before the config's `allowedOrigins`; nil: the config's, else `server.allowedOrigins`.
    public var allowedOrigins: [String]?
    /// `--allow-credentials`: before the config's `allowCredentials`; nil: the config's, else `server.allowCredentials`.
    public var allowCredentials: Bool?
    /// The access mode from `--access`: overrides the config's `access.mode` (docs/SECURITY.md). nil: the config's.
    public var accessMode: AccessMode?
    /// `--response-timeout-seconds`: before the config's `responseTimeoutSeconds`; nil: the config's, else a default
    /// that outlasts every table's slowest upstream fetch (``ResponseTimeout``).
    public var responseTimeout: Duration?
    /// Awaited once the cluster's shutdown has ended, as part of it (after `Dashboard.shutdown()`, or in a start that
    /// fails once the cluster is made, before it throws): lets a test see that no shutdown outlives the call that
    /// waits for it.
    package var clusterStopped: (@Sendable () async -> Void)?

    public init() {}
}
