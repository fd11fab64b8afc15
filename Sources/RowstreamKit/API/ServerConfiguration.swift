import Foundation

/// How a ``RowstreamServer`` listens and paces its streams. A value: build it, then hand it to
/// ``RowstreamServer/start(_:configuration:)``.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.port = 8080
/// let server = try RowstreamServer.start([binding], configuration: configuration)
/// ```
///
/// Thread-safe: a value type, `Sendable`.
public struct ServerConfiguration: Sendable {
    /// The address to listen on; `"127.0.0.1"` by default (`"0.0.0.0"` for every interface: any address but
    /// loopback needs ``access`` to choose a mode, docs/SECURITY.md).
    public var host = "127.0.0.1"
    /// The port to listen on; 0 picks a free one (read it from ``RowstreamServer/port``).
    public var port = 8080
    /// Listen with `SO_REUSEPORT`, so several instances (processes of the same user) share ``port`` and the kernel
    /// spreads new connections over them; with a ``demandRelay`` each answers any request (docs/SCALING.md, "Any
    /// instance answers any request"). Off by default: a port in use is an error.
    public var reusePort = false
    /// Send through io_uring (each event loop's sends batched into one system call: a live change to many viewers
    /// costs less CPU), falling back to `sendmsg` where the kernel refuses it. nil: on, unless the environment has
    /// `ROWSTREAM_IO_URING=off` (docs/OPERATING.md).
    public var ioUring: Bool? = nil
    /// The folder holding the page template (index.html) and its CSS and scripts: Rowstream's `Public/`.
    /// Found by default (see ``defaultPublicDirectory(executablePath:)``).
    public var publicDirectory = ServerConfiguration.defaultPublicDirectory()
    /// The `retry:` hint, in milliseconds, sent at the start of every event stream.
    public var retryMilliseconds = 2_000
    /// At ``RowstreamServer/shutdown()`` (a drain) each open stream is told to reconnect after a random delay
    /// within this window (a `retry:` of its own), then closed: a deploy's reconnects are spread over the window,
    /// each resuming with its `Last-Event-ID` (docs/SCALING.md, "Deploys and draining"). Zero: no spreading.
    public var drainWindow: Duration = .seconds(10)
    /// How long ``RowstreamServer/shutdown()`` lets in-flight answers finish before it closes what is left.
    public var shutdownGrace: Duration = .seconds(5)
    /// Written as the first two hex digits of every session id (so of the `next` and `reload` URLs), when set: a
    /// proxy in front of several instances routes a session's POSTs to the instance holding it by these digits
    /// (docs/SCALING.md, "nginx"). The other 120 bits stay random. nil: all 128 bits random.
    public var instanceTag: UInt8? = nil
    /// The interval of `: ping` comments on open streams (heartbeat events go out every two).
    public var heartbeatInterval: Duration = .seconds(15)
    /// How long a viewer's connection may leave sent bytes (a batch, a heartbeat) unacknowledged before it is
    /// closed and its session freed: finds viewers that vanished without closing (TCP_USER_TIMEOUT and TCP
    /// keepalive on each stream; docs/HARDENING.md). nil: the kernel's defaults (about 15 minutes).
    public var deadPeerTimeout: Duration? = .seconds(30)
    /// How long one batch may load before it fails as timed out (retryable; the loader's task is cancelled).
    public var batchTimeout: Duration = .seconds(30)
    /// How long a deferred answer (a batch fetched again, a proxied page, a sign-in's password check) may take once its
    /// request has arrived; then its work is cancelled and the client gets `504` (docs/HARDENING.md). Keep it above
    /// the slowest legitimate answer: an upstream's timeout times its attempts, and the waits between them.
    public var responseTimeout: Duration = .seconds(120)
    /// Event loops of the HTTP server; nil: one per core.
    public var eventLoopCount: Int? = nil
    /// Most connections open at once (past it: `503`); nil: the open-file limit less a reserve (docs/HARDENING.md).
    public var maxConnections: Int? = nil
    /// Most connections open at once from one client address (past it: `503`). Behind a reverse proxy every viewer
    /// shares the proxy's address: raise it and let the proxy limit per client.
    public var maxConnectionsPerAddress = 4_096
    /// Where the server reports what it does not hand to a viewer (a loader's unexpected error, an upstream
    /// failure); by default `rowstream: ...` lines on standard error. See ``RowstreamLogger``.
    public var logger: any RowstreamLogger = StandardErrorLogger()
    /// The keys that seal resume tokens and the JSON proxy's cursors. By default a random key made for this value:
    /// tokens then open only on this server until it stops (a restart or another instance answers a resuming viewer
    /// with `reset`). Give every instance the same keys, from a file (``SealingKeyFile``), so any of them, and any
    /// after a restart, reads any token (docs/SCALING.md, "Keys: tokens valid on every instance").
    ///
    /// ```swift
    /// configuration.sealingKeys = try SealingKeyFile.load(path: "/etc/rowstream/secret")
    /// ```
    public var sealingKeys: SealingKeys = .random()
    /// The cluster live tables share (docs/SCALING.md, "Live tables across instances"): one refresher per table
    /// for every instance, each head published once. nil: this instance refreshes its live tables alone. The
    /// dashboard sets it from `--redis` (`RedisLiveCluster`).
    package var liveCluster: (any LiveCluster)?
    /// Hands a demand (`next`, `reload`) for a session another instance holds to that instance (docs/SCALING.md, "Any
    /// instance answers any request"), so a balancer may send any request anywhere. nil: such a demand is answered
    /// `204`, session ended. The dashboard sets it from `--redis` (`RedisDemandRelay`).
    package var demandRelay: (any DemandRelay)?
    /// Who may frame the pages: the CSP's `frame-ancestors` sources, e.g. `["'self'"]` or
    /// `["https://intranet.example"]` (docs/SECURITY.md, "Response headers"). Empty or `["'none'"]` (the default):
    /// no site, not even this one. Sources holding anything but a keyword, scheme or host are refused at start.
    public var frameAncestors: [String] = ["'none'"]
    /// Origins (`https://embed.example`) whose pages may POST to this server (`next`, `reload`, `refresh`) as if they
    /// were its own (docs/SECURITY.md, "Forged requests"), and that get CORS headers on every answer, so they may
    /// embed tables with `<rowstream-table>` (docs/EMBED.md). Empty by default: only the server's own pages.
    public var allowedOrigins: [String] = []
    /// Whether pages of ``allowedOrigins`` may send credentials (cookies) along: `Access-Control-Allow-Credentials:
    /// true` on their answers (docs/EMBED.md, "Protected tables"). Off by default.
    public var allowCredentials = false
    /// Who may reach the server and see which tables and pages (docs/SECURITY.md). By default no mode is chosen:
    /// everyone sees everything on a loopback ``host``, and a server listening on any other address refuses to
    /// start until ``AccessConfiguration/mode`` is set (`.open`, "none" in a config, included).
    public var access = AccessConfiguration()

    /// The defaults above.
    public init() {}

    /// Where Rowstream's `Public/` folder is: the working directory's `Public/` if it holds index.html, else one
    /// beside the built executable (`.build/<config>/NAME` -> `../../Public`), else the one in the Rowstream
    /// sources this library was built from (a package depending on Rowstream by path, or a checkout).
    public static func defaultPublicDirectory(executablePath: String = CommandLine.arguments.first ?? "") -> String {
        let fileManager = FileManager.default
        func holdsPublicFiles(_ folder: URL) -> Bool {
            fileManager.fileExists(atPath: folder.appendingPathComponent("index.html").path)
        }
        if fileManager.fileExists(atPath: "Public/index.html") { return "Public" }
        var folder = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            if holdsPublicFiles(folder.appendingPathComponent("Public")) { return folder.appendingPathComponent("Public").path }
            folder = folder.deletingLastPathComponent()
        }
        // This file is Sources/RowstreamKit/API/ServerConfiguration.swift in the Rowstream package.
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent()   // API
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let packaged = package.appendingPathComponent("Public")
        return holdsPublicFiles(packaged) ? packaged.path : "Public"
    }
}
