/// The sessions that ended lately, with their tables, so a demand that names one under another table's URL is a
/// `404` (docs/PROTOCOL.md, "A session that ended": any other well-formed id that is not open here, ended lately or
/// not, is told "this session ended").
///
/// Bounded both ways: an id is remembered for `lifetime` after its session ended, and at most `capacity` ids at
/// once (the oldest is forgotten first). Ids end in time order, so one queue holds them oldest first, and both
/// bounds drop from its head: each `record` costs O(1) amortized, and the memory is at most `capacity` entries
/// (about 100 bytes each with the dictionary's slack: ~3 MB at the default 32,768).
/// A plain value: the ``SessionRegistry`` keeps it under its lock.
struct EndedSessions {
    /// An ended session: its table (a `next` of another table's URL is no match) and when it ended.
    private struct Ended {
        let table: String
        let at: ContinuousClock.Instant
    }

    /// How long an ended session's id is remembered: longer than a demand POST may stay in flight (the page aborts
    /// one after 10 s, config.js `postTimeout`) and than the page's watchdog takes to find a silent stream (75 s).
    static let defaultLifetime: Duration = .seconds(120)
    /// Most ids remembered at once: every stream of a busy instance (19,000) cut at once still fits.
    static let defaultCapacity = 32_768

    let lifetime: Duration
    let capacity: Int
    private var ended: [SessionID: Ended] = [:]
    /// The ids in `ended`, oldest first, from `head` on (the part before `head` is dropped in bulk now and then).
    private var order: [SessionID] = []
    private var head = 0

    init(lifetime: Duration = defaultLifetime, capacity: Int = defaultCapacity) {
        self.lifetime = lifetime
        self.capacity = max(1, capacity)
    }

    /// Ids remembered now (those past their lifetime included until the next `record` drops them).
    var count: Int { ended.count }

    /// Remembers that session `id` of table `table` ended at `now` (not before any id recorded earlier). A session
    /// ends once: an id already remembered keeps its first record.
    mutating func record(_ id: SessionID, table: String, at now: ContinuousClock.Instant) {
        forget(before: now - lifetime)
        guard ended[id] == nil else { return }
        while ended.count >= capacity { dropOldest() }
        ended[id] = Ended(table: table, at: now)
        order.append(id)
    }

    /// Whether session `id` of table `table` ended within the lifetime before `now`.
    func contains(_ id: SessionID, table: String, at now: ContinuousClock.Instant) -> Bool {
        self.table(of: id, at: now) == table
    }

    /// The table of session `id` if it ended within the lifetime before `now`; else nil.
    func table(of id: SessionID, at now: ContinuousClock.Instant) -> String? {
        guard let entry = ended[id], now - entry.at <= lifetime else { return nil }
        return entry.table
    }

    /// Drops the ids that ended before `cutoff`.
    private mutating func forget(before cutoff: ContinuousClock.Instant) {
        while head < order.count, let oldest = ended[order[head]], oldest.at < cutoff { dropOldest() }
    }

    /// Drops the oldest id; compacts the queue once its dropped part is most of it.
    private mutating func dropOldest() {
        guard head < order.count else { return }
        ended[order[head]] = nil
        head += 1
        if head >= 1_024, head * 2 >= order.count {
            order.removeFirst(head)
            head = 0
        }
    }
}
