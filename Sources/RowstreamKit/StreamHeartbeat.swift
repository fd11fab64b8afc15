import Dispatch
import HTTPServer
import Synchronization

/// Named `heartbeat` events on a viewer's stream. The server's `: ping` comments keep proxies awake but a page
/// cannot see comments; these events let the page's watchdog tell a live but quiet stream from a dead one.
///
/// Each carries the interval (`{"interval": ms}`), so the page knows how long a silence means the stream is
/// gone. The first goes out after one interval: `session` stays the first event, and nothing but a `: ping`
/// comment appears on an idle stream before it. A timer on a global queue writes the rest through the thread-safe
/// `StreamWriter`; the stream's close cancels it. Thread-safe: the timer is owned by a locked box.
enum StreamHeartbeat {
    /// Starts heartbeat events on `writer` every two `commentInterval`s (the server's `: ping` interval) until
    /// the stream ends. Twice, so that an idle stream still shows a `: ping` comment first, as before.
    static func start(on writer: StreamWriter, commentInterval: Duration) {
        let interval = commentInterval * 2
        let milliseconds = max(1, Int(interval.components.seconds) * 1_000
            + Int(interval.components.attoseconds / 1_000_000_000_000_000))
        let event = SSEEvent(event: "heartbeat", data: "{\"interval\":\(milliseconds)}").encoded()
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
