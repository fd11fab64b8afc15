import Dispatch
import HTTPServer
import Synchronization

/// Named `heartbeat` events on a viewer's stream. The server's `: ping` comments keep proxies awake but a page
/// cannot see comments; these events let the page's watchdog tell a live but quiet stream from a dead one.
///
/// The first heartbeat goes out at once and carries the interval (`{"interval": ms}`), so the page knows how
/// long a silence means the stream is gone. A timer on a global queue writes the rest through the thread-safe
/// `StreamWriter`; the stream's close cancels it. Thread-safe: the timer is owned by a locked box.
enum StreamHeartbeat {
    /// Starts heartbeats on `writer` every `interval` until the stream ends.
    static func start(on writer: StreamWriter, every interval: Duration) {
        let milliseconds = max(1, Int(interval.components.seconds) * 1_000
            + Int(interval.components.attoseconds / 1_000_000_000_000_000))
        let event = SSEEvent(event: "heartbeat", data: "{\"interval\":\(milliseconds)}").encoded()
        writer.write(event)
        let timer = HeartbeatTimer(every: milliseconds) { writer.write(event) }
        writer.onClose { timer.cancel() }
    }
}

/// Owns one repeating dispatch timer so that a `@Sendable` close callback can cancel it. Thread-safe.
private final class HeartbeatTimer: Sendable {
    private let timer: Mutex<DispatchSourceTimer?>

    /// Starts the timer at once; `tick` runs on a global queue every `milliseconds`.
    init(every milliseconds: Int, _ tick: @escaping @Sendable () -> Void) {
        let source = DispatchSource.makeTimerSource(queue: .global())
        source.schedule(deadline: .now() + .milliseconds(milliseconds), repeating: .milliseconds(milliseconds))
        source.setEventHandler(handler: tick)
        source.resume()
        timer = Mutex(source)
    }

    /// Stops the timer. Idempotent.
    func cancel() {
        let timer = self.timer.withLock { timer in
            defer { timer = nil }
            return timer
        }
        timer?.cancel()
    }
}
