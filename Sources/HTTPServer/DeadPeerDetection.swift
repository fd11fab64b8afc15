import Foundation

/// Finds stream peers that vanished without a FIN or RST (a sleeping laptop, a pulled cable, a NAT or proxy that
/// forgot the flow). Such a peer never answers, so without help the kernel retransmits for about 15 minutes before
/// it gives up, and the stream, its viewer and its descriptor stay open all that time.
///
/// Two kernel timers close the gap, both bounded by the same `timeout`:
/// - `TCP_USER_TIMEOUT`: sent bytes (an event or the `: ping` heartbeat) that stay unacknowledged for `timeout`
///   fail the socket with `ETIMEDOUT`; epoll reports an error and the connection closes, ending its stream.
/// - TCP keepalive (`SO_KEEPALIVE`, first probe after `timeout` of silence, then every `timeout / 3`): covers
///   streams with no heartbeat (the no-script HTML table), whose socket may be idle for long stretches.
///
/// So a vanished event-stream peer is closed at most `heartbeatInterval + timeout` after it went away.
/// Thread-safe: stateless.
enum DeadPeerDetection {
    /// Sets both timers, and turns them on, on a listening socket: Linux copies them to each socket it accepts, so
    /// a connection costs no `setsockopt` (a storm of arrivals made two per stream before). Every connection has
    /// them, not only streams: a plain request's connection idle past `timeout` gets a keepalive probe or two before
    /// the idle timeout closes it, and one whose answer stays unacknowledged for `timeout` fails as a stream's would.
    /// Best effort: a failing `setsockopt` (an old kernel) leaves the kernel's defaults, which only delays the
    /// detection.
    static func prepareListener(_ fd: Int32, timeout: Duration) {
        let seconds = max(1, (milliseconds(timeout) + 999) / 1_000)
        let tcp = Int32(IPPROTO_TCP)
        set(fd, tcp, TCP_USER_TIMEOUT, milliseconds(timeout))
        set(fd, SOL_SOCKET, SO_KEEPALIVE, 1)
        set(fd, tcp, TCP_KEEPIDLE, seconds)
        set(fd, tcp, TCP_KEEPINTVL, max(1, seconds / 3))
        set(fd, tcp, TCP_KEEPCNT, 3)
    }

    private static func milliseconds(_ timeout: Duration) -> Int32 {
        max(1, Int32(clamping: timeout.components.seconds * 1_000
            + timeout.components.attoseconds / 1_000_000_000_000_000))
    }

    private static func set(_ fd: Int32, _ level: Int32, _ option: Int32, _ value: Int32) {
        var value = value
        _ = setsockopt(fd, level, option, &value, socklen_t(MemoryLayout<Int32>.size))
    }
}
