import Foundation
import Glibc
import Locking
import TestSupport

/// How many batches each viewer may have: a viewer asks for its next batch (POST `next`) only while it has fewer.
/// The test moves it, so viewers are mid-way through the table when it kills or restarts an instance, without
/// racing a clock; `end()` stops every viewer (the test is over). Thread-safe (one `Lock`).
final class DemandAllowance: Sendable {
    private let batches: Lock<Int>

    init(_ batches: Int) { self.batches = Lock(batches) }

    var value: Int { batches.withLock { $0 } }
    var isOver: Bool { value < 0 }

    func set(_ value: Int) { batches.withLock { $0 = value } }

    func end() { set(-1) }

    /// Blocks (`eventuallyBlocking`) until a viewer with `had` batches may ask for one more; false past `deadline`
    /// or once the test is over.
    func waitBeyond(_ had: Int, until deadline: ContinuousClock.Instant) -> Bool {
        let left = deadline - ContinuousClock.now
        return left > .zero && eventuallyBlocking(timeout: left / TestTime.scale) { value > had || isOver } && !isOver
    }
}

/// One viewer of a table through nginx, doing what a browser's `EventSource` and the bundled page do: on a `rows`
/// event it asks for the next batch (POST the latest session's `next`); when the stream ends or the connection
/// fails it waits the last `retry:` and reconnects with `Last-Event-ID`, and after a resumed `session` it asks for
/// the batch it has not got yet; on `reset` it clears its rows; a `next` answered `204` with `Rowstream-Session: ended`
/// (the instance holding the session is gone, or no instance could reach it) makes it drop the stream and reconnect at
/// once, as the page does (Public/connection.js, `why: "ended"`). It records every row's key and `data-index`, each
/// session's instance tag (the id's first two hex digits) and how often it reconnected.
/// `run` blocks: call it on a thread of its own. `outcome` may be read from any thread (one `Lock`).
final class ClusterViewer: Sendable {
    struct Outcome: Sendable {
        var keys: [String] = []
        var indexes: [Int] = []
        var batches = 0
        /// The instance tag of every session, in order.
        var instances: [String] = []
        var reconnects = 0
        /// Reconnects made at once on a `next` answered session ended.
        var endedReconnects = 0
        var resets = 0
        /// Stream answers other than 200: a browser's `EventSource` closes for good on one (this viewer retries,
        /// so that the test can tell what else went wrong).
        var failedOpens = 0
        /// `complete`'s total, once seen.
        var total: Int?
        /// What went wrong on the way (server `error` events, statuses other than 200, failed or timed-out reads),
        /// for the test's message.
        var trouble: [String] = []
    }

    private let state = Lock(Outcome())
    private let port: Int
    private let path: String

    init(port: Int, path: String) {
        self.port = port
        self.path = path
    }

    var outcome: Outcome { state.withLock { $0 } }

    /// Streams the table to its `complete` (or until `deadline`, the allowance's end, or 10,000 connections),
    /// asking for batches as `allowance` lets it.
    func run(allowance: DemandAllowance, until deadline: ContinuousClock.Instant) {
        var lastEventID: String?
        var retry = 2_000
        var poster = KeepAlivePoster(port: port)
        var endedNow = false
        for attempt in 0..<10_000 where outcome.total == nil && ContinuousClock.now < deadline && !allowance.isOver {
            if attempt > 0 {
                state.withLock {
                    $0.reconnects += 1
                    if endedNow { $0.endedReconnects += 1 }
                }
                // EventSource waits `retry`; the page reconnects at once when told its session ended.
                if !endedNow { usleep(UInt32(min(max(retry, 10), 60_000)) * 1_000) }
            }
            endedNow = false
            do {
                let stream = try SSEClient.openBlocking(port: port, path: path, lastEventID: lastEventID)
                defer {
                    lastEventID = stream.lastEventID
                    retry = stream.retryMilliseconds ?? retry
                }
                guard stream.status == 200 else {
                    state.withLock { $0.failedOpens += 1 }
                    note("status \(stream.status)")
                    continue
                }
                endedNow = try read(stream, resumed: lastEventID != nil, allowance: allowance, until: deadline,
                                    poster: &poster)
            } catch {
                note("\(error)")   // a refused or dropped connection: EventSource reconnects after `retry`
            }
        }
    }

    /// Reads `stream` until it ends (false) or a `next` is answered session ended (true: reconnect at once).
    private func read(_ stream: SSEClient, resumed: Bool, allowance: DemandAllowance,
                      until deadline: ContinuousClock.Instant, poster: inout KeepAlivePoster) throws -> Bool {
        var next: String?
        while ContinuousClock.now < deadline, let event = try stream.nextBlocking() {
            switch event.event {
            case "session":
                let session = try JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any]
                next = session?["next"] as? String
                state.withLock { $0.instances.append(String((session?["session"] as? String ?? "").prefix(2))) }
                // A resumed stream waits for demand; a fresh one loads its first batch by itself.
                if resumed, demand(next, allowance: allowance, until: deadline, poster: &poster) { return true }
            case "rows":
                state.withLock {
                    $0.keys += rowKeys(event.data)
                    $0.indexes += rowIndexes(event.data)
                    $0.batches += 1
                }
                if !event.data.contains("<!--rs:last-->"),
                   demand(next, allowance: allowance, until: deadline, poster: &poster) {
                    return true
                }
            case "complete":
                let body = try JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any]
                state.withLock { $0.total = body?["total"] as? Int ?? -1 }
                return false
            case "reset":
                state.withLock {
                    $0.resets += 1
                    $0.keys = []
                    $0.indexes = []
                }
            case "error":
                note("error event \(event.data)")
                // Retries the batch.
                if demand(next, allowance: allowance, until: deadline, poster: &poster) { return true }
            default:
                break   // loading, heartbeat
            }
        }
        return false
    }

    /// POSTs `next` once `allowance` lets this viewer have one more batch; true when it was answered `204`, session
    /// ended. As the page does (Public/post.js), a POST that gets no answer, a 5xx or a 429 is sent again after a
    /// random wait (full jitter, 50 ms doubling), at most 4 times in all: behind round robin a POST may meet an
    /// instance closing its kept-alive connection (a drain: nginx answers 502) while the stream is elsewhere and
    /// stays open. Any other answer is final.
    private func demand(_ next: String?, allowance: DemandAllowance, until deadline: ContinuousClock.Instant,
                        poster: inout KeepAlivePoster) -> Bool {
        guard let next, allowance.waitBeyond(outcome.batches, until: deadline) else { return false }
        for attempt in 0..<4 {
            let status = poster.post(next)
            if let status, status < 500, status != 429 { return status == 204 }
            note("POST next: \(status.map { "status \($0)" } ?? "no answer"), attempt \(attempt + 1)")
            usleep(UInt32.random(in: 0...(50_000 << attempt)))
        }
        return false
    }

    private func note(_ trouble: String) {
        state.withLock { $0.trouble.append(trouble) }
    }
}

/// A viewer's POSTs on one keep-alive connection, as a browser sends them, and a new connection when that one
/// failed or was closed. Confined to the viewer's thread.
struct KeepAlivePoster {
    let port: Int
    private var connection: TestConnection?

    init(port: Int) { self.port = port }

    /// POSTs `path`; its status, or nil when neither the open connection nor a new one answered.
    mutating func post(_ path: String) -> Int? {
        for _ in 0..<2 {
            do {
                let connection = try self.connection ?? TestConnection(port: port)
                self.connection = connection
                let response = try connection.exchangeBlocking("POST", path)
                if response.headers["connection"]?.lowercased() == "close" { self.connection = nil }
                return response.status
            } catch {
                connection = nil   // closed meanwhile (nginx's keep-alive timeout) or refused: a new one
            }
        }
        return nil
    }
}
