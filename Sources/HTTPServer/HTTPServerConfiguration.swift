import Foundation

/// Server settings. Thread-safe: a value type.
public struct HTTPServerConfiguration: Sendable {
    /// IPv4 address to bind (dotted quad).
    public var host: String = "127.0.0.1"
    /// TCP port; 0 picks an ephemeral port (returned by `start()`).
    public var port: Int = 8080
    /// Set `SO_REUSEPORT` on the listening socket: several processes of one user bind the same port and the kernel
    /// spreads new connections over them (by a hash of each connection's addresses). Off: a port in use fails `bind`.
    public var reusePort = false
    /// Number of event loop threads; default: the CPUs this process may run on (its affinity mask, as `taskset`
    /// sets it), so a server pinned to one core runs one loop instead of several time-sharing it.
    public var eventLoopCount: Int = UsableCPUs.count()
    /// Most unsent bytes a connection may hold; a stream write past it drops the connection (slow consumer).
    public var maxWriteBufferBytes: Int = 1 << 20
    /// Whether each event loop submits its connections' sends in batches through io_uring (a broadcast's sends in
    /// one system call); where the kernel refuses io_uring (ENOSYS, EPERM), or this is false, sends use `sendmsg`
    /// as before. Default: true unless the environment has `ROWSTREAM_IO_URING=off`.
    public var ioUring: Bool = SendRing.enabledByEnvironment
    /// Tests only: the io_uring submission queue's entries (small, to fill it within one broadcast; 0, which the
    /// kernel refuses with EINVAL, to see the fallback to `sendmsg`).
    var ioUringEntries = SendRing.defaultEntries
    /// Tests only: SO_SNDBUF of each accepted socket (small, to force partial sends); nil keeps the kernel's.
    var sendBufferBytes: Int32?
    /// While connections arrive as a storm (``ArrivalRate``: 20 or more in 10 ms that found another waiting), the
    /// accepting loop (loop 0) puts off each wait that would block by this long, so it takes the arrivals of that time
    /// together: one wake-up, one batch of accepts, reads and first batches, instead of a wake-up for every one or two
    /// viewers. A loop with something ready never pauses; past the storm, and for a client that connects again only
    /// once answered, nothing is delayed. Zero: never pauses.
    public var arrivalPause: Duration = .microseconds(500)
    /// Tests only: what counts as a storm of arrivals (``arrivalPause``).
    var arrivalRate = ArrivalRate()
    /// How often open event streams get a `: ping` comment.
    public var heartbeatInterval: Duration = .seconds(15)
    /// How long a stream's peer may leave sent bytes unacknowledged (or, with no heartbeat, stay silent to TCP
    /// keepalive probes) before the kernel fails the socket and the stream is closed: finds peers that vanished
    /// without a FIN or RST (see `DeadPeerDetection`). Set on each stream's socket when it opens; nil: the kernel's
    /// defaults (about 15 minutes of retransmissions, no keepalive). The keepalive timings are set once on the
    /// listening socket (accepted sockets inherit them; inert until a stream turns keepalive on).
    public var deadPeerTimeout: Duration? = .seconds(30)
    /// How long a keep-alive connection may wait for its next request (and a write may stall).
    public var idleTimeout: Duration = .seconds(60)
    /// How long a request may take to arrive in full once its first byte came; then 408 and close.
    public var requestHeadTimeout: Duration = .seconds(10)
    /// How long a deferred (`.later`) answer may take once its request has arrived; then the work producing it is
    /// cancelled, the client gets `504` and the connection closes. Meanwhile at most one pipelined request head is
    /// read from that connection. Keep it well above the slowest legitimate answer (an upstream's total timeout,
    /// 15 s by default, plus its queueing).
    public var responseTimeout: Duration = .seconds(120)
    /// How long `shutdown()` waits for responses and streams to finish before closing everything.
    public var shutdownGrace: Duration = .seconds(5)
    /// At `shutdown()` every open event stream gets a `retry:` of its own, a random delay in 1 ms...this window,
    /// and is then closed: its viewer reconnects after that delay, so the viewers of a draining instance come back
    /// spread over the window, not all at once (see `DrainHint`). Zero: no hint (the stream's own `retry:` stands).
    public var drainWindow: Duration = .seconds(10)
    /// Most connections open at once; past it a new connection gets `503` and is closed. Each connection is one
    /// descriptor: the default is the process's open-file limit less ``reservedDescriptors`` (19,744 at a limit of
    /// 20,000), so the cap, not `EMFILE`, is what a flood meets.
    public var maxConnections: Int = HTTPServerConfiguration.defaultMaxConnections()
    /// Most connections open at once from one client IPv4 address; past it: `503` and close. Behind a reverse
    /// proxy every viewer comes from the proxy's address: raise it (or set `Int.max`) and limit per client there.
    public var maxConnectionsPerAddress: Int = 4_096
    /// Returns the allocator's free memory to the system (glibc `malloc_trim`, off the loops, at most every
    /// 2 s) once open connections have fallen by this many, and to at most half, from their peak, and once resident
    /// memory grew by 8 MB and settled (a storm of arrivals): without it RSS stays at the high-water mark of the
    /// busiest moment (see `FreedMemoryReturn`). nil: never.
    public var freedMemoryReturnDrop: Int? = 256
    /// Request parser limits.
    public var limits = HTTPParserLimits()
    /// Header fields of every answer the server makes itself, before or beside the responder: a malformed or
    /// oversized request's 400, 413, 414, 431 or 501, a request that did not arrive in time (408), a `.later`
    /// answer past `responseTimeout` (504), the connection cap's 503. The responder's answers carry what it gives
    /// them: a responder that adds security headers to every answer passes the same here, so every answer has them.
    /// Fields the server owns (framing, `X-Content-Type-Options`) or that could split a response are dropped.
    public var ownAnswerHeaders: HTTPHeaders = [:]

    public init() {}
}

extension HTTPServerConfiguration {
    /// Descriptors kept out of the default connection cap: listeners, epoll and eventfd descriptors, the upstream
    /// client's sockets, files served, logs.
    public static let reservedDescriptors = 256

    /// The open-file soft limit (`RLIMIT_NOFILE`) less ``reservedDescriptors``, at least 64; 16,000 when the limit
    /// cannot be read or is unlimited (`RLIM_INFINITY`).
    public static func defaultMaxConnections() -> Int {
        guard let limit = DescriptorTable.openFileLimit() else { return 16_000 }
        return defaultMaxConnections(openFileLimit: limit)
    }

    /// The default cap for an open-file soft limit of `openFileLimit` (see ``defaultMaxConnections()``).
    public static func defaultMaxConnections(openFileLimit: rlim_t) -> Int {
        guard openFileLimit < rlim_t(Int32.max) else { return 16_000 }
        return max(64, Int(openFileLimit) - reservedDescriptors)
    }
}
