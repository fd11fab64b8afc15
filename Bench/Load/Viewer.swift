/// One simulated browser tab: a stream connection that it drops and resumes with Last-Event-ID, and the row
/// indices it has seen, to prove exactly-once delivery. Thread rules: owned by the load client's single thread.
final class Viewer {
    let number: Int
    var lastEventID: String?
    var nextURL: String?
    var seen = Set<Int>()
    var total: Int?
    var stream: Int32 = -1
    var batchesOnThisConnection = 0
    var churnAfter: Int
    var lastProgress = ContinuousClock.now
    var done = false
    /// Asks for gzip, as a browser does.
    let gzip: Bool
    /// Its table is live (the `session` event says so): its stream stays open after `complete`.
    var live = false

    init(number: Int, churnAfter: Int, gzip: Bool = false) {
        self.number = number
        self.churnAfter = churnAfter
        self.gzip = gzip
    }
}

/// What the run observed; every field is a count. `violations` must be zero for the run to pass.
struct LoadStatistics {
    var viewersStarted = 0
    var viewersCompleted = 0
    var connects = 0
    var reconnects = 0
    var connectFailures = 0
    var batches = 0
    var rows = 0
    var posts = 0
    /// POSTs answered 204 (`Rowstream-Session: ended`): the viewer's stream was dropped or completed before the
    /// demand reached its session. Expected now and then; not a violation.
    var endedPosts = 0
    var nudges = 0
    var errorEvents = 0
    var duplicateRows = 0
    var missingRows = 0
    var resets = 0
    var unexpectedStatuses = 0
    var unexpectedCloses = 0
    var peakOpenStreams = 0
    /// Viewers that asked for gzip, and gzip writes that did not inflate (each a violation).
    var gzipViewers = 0
    var inflateFailures = 0
    /// Live tables: viewers of one, change events (`insert`, `update`, `remove`), the rows or keys they carried,
    /// `fresh` events, and change events not in the protocol's form (each a violation).
    var liveViewers = 0
    var liveChanges = 0
    var liveChangedRows = 0
    var freshEvents = 0
    var malformedChanges = 0
    /// Unexpected response statuses by code (stream: not 200/204; POST: not 202/204).
    var unexpected: [Int: Int] = [:]

    /// A POST `next`'s answer: `202`, or `204` when its session had ended first (its stream was dropped, or it
    /// completed); any other status is unexpected.
    mutating func countPostAnswer(_ status: Int) {
        switch status {
        case 202: break
        case 204: endedPosts += 1
        default:
            unexpectedStatuses += 1
            unexpected[status, default: 0] += 1
        }
    }

    var violations: Int {
        duplicateRows + missingRows + resets + unexpectedStatuses + inflateFailures + malformedChanges
    }

    var json: String {
        let fields: [(String, Int)] = [
            ("viewers_started", viewersStarted), ("viewers_completed", viewersCompleted), ("connects", connects),
            ("reconnects", reconnects), ("connect_failures", connectFailures), ("batches", batches),
            ("rows", rows), ("posts", posts), ("ended_posts", endedPosts), ("nudges", nudges),
            ("error_events", errorEvents),
            ("duplicate_rows", duplicateRows), ("missing_rows", missingRows), ("resets", resets),
            ("unexpected_statuses", unexpectedStatuses), ("unexpected_closes", unexpectedCloses),
            ("peak_open_streams", peakOpenStreams), ("gzip_viewers", gzipViewers),
            ("inflate_failures", inflateFailures), ("live_viewers", liveViewers), ("live_changes", liveChanges),
            ("live_changed_rows", liveChangedRows), ("fresh_events", freshEvents),
            ("malformed_changes", malformedChanges), ("violations", violations),
        ]
        let codes = unexpected.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",")
        let counts = fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",")
        return "{" + counts + ",\"unexpected_by_status\":{\(codes)}}"
    }
}
