import Dispatch
import HTTPServer
import Locking

/// Named `heartbeat` events on every viewer stream of one server, from one timer. The server's `: ping` comments
/// keep proxies awake but a page cannot see comments; these events let the page's watchdog tell a live but quiet
/// stream from a dead one.
///
/// Each carries the interval (`{"interval": ms}`), so the page knows how long a silence means the stream is
/// gone. A stream's first goes out one interval after ``start(on:)``, then one every interval: `session` stays
/// the first event, and nothing but a `: ping` comment appears on an idle stream before it (docs/PROTOCOL.md).
///
/// One timer for all streams: every stream registered gets its next due time one interval on, so due times come
/// in the order streams are queued and the queue stays sorted; the timer wakes for the head, writes to every
/// stream that is due (never early; up to the timer's 10 ms leeway late, which lets streams opened together share
/// a wake-up) and queues them again. A stream costs one queue entry (16 bytes): a closed stream is dropped when
/// it comes due, or sooner when streams come and go: once the queue has doubled since it was last compacted, starting
/// the next stream drops every closed one (each writer held its connection: under churn, a whole interval of closed
/// streams stayed in memory, about 640 bytes each: 48 MB in `Scripts/soak`'s 2,000 viewers).
///
/// Thread-safe: the queue and the timer are in one `Lock`; events are written outside it through the
/// thread-safe `StreamWriter`. Ownership: the server creates one at start-up and calls ``stop()`` at shutdown (or
/// it stops when released). The timer holds the queue, not this object: no weak reference, no cycle past `stop()`.
final class StreamHeartbeat: Sendable {
    /// The time between a stream's heartbeat events: twice the `: ping` comment interval.
    let interval: Duration
    private let queue: HeartbeatQueue

    /// Heartbeats every two `commentInterval`s (the server's `: ping` interval), so that an idle stream still
    /// shows a `: ping` comment first.
    init(commentInterval: Duration) {
        interval = commentInterval * 2
        let (seconds, attoseconds) = interval.components
        let nanoseconds = UInt64(max(1_000_000, seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
        let milliseconds = max(1, nanoseconds / 1_000_000)
        let event = SSEEvent(event: "heartbeat", data: "{\"interval\":\(milliseconds)}").encoded()
        queue = HeartbeatQueue(nanoseconds: nanoseconds, event: event)
    }

    deinit { queue.stop() }

    /// Starts heartbeat events on `writer` until its stream ends (or ``stop()``). Thread-safe.
    func start(on writer: StreamWriter) { queue.start(on: writer) }

    /// Stops every stream's heartbeats and the timer. Idempotent; streams started after it get none.
    func stop() { queue.stop() }

    /// Streams with heartbeats: open ones, and closed ones not yet due. For tests.
    var streamCount: Int { queue.streamCount }
}

/// The streams in due order and the one timer that serves them (see ``StreamHeartbeat``). The timer's handler
/// holds this queue until ``stop()`` cancels the timer. Thread-safe: one `Lock`.
private final class HeartbeatQueue: Sendable {
    private struct Entry {
        let writer: StreamWriter
        /// `DispatchTime.uptimeNanoseconds` when it is due.
        let due: UInt64
    }

    private struct State {
        var queue: [Entry] = []
        /// Entries before `head` were taken; compacted when more than half the array.
        var head = 0
        /// Queued entries (from `head`) at which `start(on:)` drops the closed ones: twice what was left the last time.
        var compactAt = HeartbeatQueue.leastCompaction
        var timer: DispatchSourceTimer?
        /// Whether the timer is set for the entry at `head`.
        var armed = false
        var stopped = false
    }

    /// The fewest queued entries worth a pass over the queue for closed streams.
    static let leastCompaction = 1_024
    private let nanoseconds: UInt64
    /// The encoded event, one array shared by every stream's write buffer.
    private let event: [UInt8]
    private let state = Lock(State())

    init(nanoseconds: UInt64, event: [UInt8]) {
        self.nanoseconds = nanoseconds
        self.event = event
    }

    func start(on writer: StreamWriter) {
        state.withLock { state in
            guard !state.stopped else { return }
            if state.timer == nil { state.timer = makeTimer() }
            state.queue.append(Entry(writer: writer, due: DispatchTime.now().uptimeNanoseconds + nanoseconds))
            if state.queue.count - state.head >= state.compactAt { dropClosed(&state) }
            if !state.armed { arm(&state) }
        }
    }

    /// Drops the entries of closed streams (the rest stay in due order) and sets the next compaction at twice what
    /// is left: each pass covers as many starts as entries it reads, so a start costs O(1) amortized. Under the lock
    /// (taking each writer's, as `tick` does). The timer may stay set for a dropped head: it then fires for nothing
    /// and is set again.
    private func dropClosed(_ state: inout State) {
        state.queue = state.queue[state.head...].filter { $0.writer.isOpen }
        state.head = 0
        state.compactAt = max(Self.leastCompaction, 2 * state.queue.count)
    }

    func stop() {
        let timer = state.withLock { state in
            defer { state = State(); state.stopped = true }
            return state.timer
        }
        timer?.cancel()
    }

    var streamCount: Int { state.withLock { $0.queue.count - $0.head } }

    private func makeTimer() -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { self.tick() }
        timer.schedule(deadline: .distantFuture)
        timer.resume()
        return timer
    }

    /// Sets the timer for the head of the queue (or for never, if it is empty). Under the lock.
    private func arm(_ state: inout State) {
        guard let timer = state.timer else { return }
        if state.head < state.queue.count {
            timer.schedule(deadline: DispatchTime(uptimeNanoseconds: state.queue[state.head].due),
                           leeway: .milliseconds(10))
            state.armed = true
        } else {
            timer.schedule(deadline: .distantFuture)
            state.armed = false
        }
    }

    /// Writes the event to every open stream that is due and queues it again; forgets closed ones.
    private func tick() {
        let due = state.withLock { state -> [StreamWriter] in
            guard state.timer != nil else { return [] }
            let now = DispatchTime.now().uptimeNanoseconds
            var due: [StreamWriter] = []
            while state.head < state.queue.count, state.queue[state.head].due <= now {
                let writer = state.queue[state.head].writer
                state.head += 1
                guard writer.isOpen else { continue }
                due.append(writer)
                state.queue.append(Entry(writer: writer, due: now + nanoseconds))
            }
            if state.head > state.queue.count / 2 {
                state.queue.removeFirst(state.head)
                state.head = 0
            }
            arm(&state)
            return due
        }
        for writer in due { writer.write(event) }
    }
}
