import Batches
import HTTPServer
import Locking
import Tables

/// A table's `rows` events as many viewers get them: when viewers get the very same rows at the same place (the
/// rows a table's pipeline shared, ``RecentBatches``: above all the first batch, in a storm of arrivals), the
/// event's data lines are rendered once and every viewer's event carries that one array as its body, written
/// through the connections' shared-write path as a live table's broadcasts are; each viewer's `id:` (its resume
/// token) is in its own head. While the id is the same too (the same next place) the whole event is shared, head
/// and body; a table whose positions are sealed for each viewer never shares rows, so never ids.
///
/// Keyed by identity (``HeldBuffer``): the rows array an entry holds (so it cannot be freed and its address reused while the entry
/// lives), the index of its first row and whether it is the last batch. Bounded: at most ``capacity`` entries, each
/// at most ``lifetime`` old, ``maxBytes`` of bodies in all (the oldest go first), no body over ``maxBodyBytes``.
///
/// Thread-safe: one `Lock`; rendering and encoding run outside it.
final class SharedBatchBodies: Sendable {
    private struct Entry: Sendable {
        let rows: HeldBuffer<Row>
        let startIndex: Int
        let isLast: Bool
        /// The `rows` event, its body shared by every entry of these rows.
        let event: FramedSSEEvent
        let position: ResumeToken.Position
        let made: ContinuousClock.Instant
    }

    static var capacity: Int { 8 }
    static var lifetime: Duration { .seconds(10) }
    static var maxBytes: Int { 4 << 20 }
    static var maxBodyBytes: Int { 1 << 20 }

    private let entries = Lock<[Entry]>([])

    /// The `rows` event of `rows` at `startIndex` (`isLast`: the final batch) whose next place is `position`: shared
    /// if an entry holds these very rows (its head too if the place is the same), else made from `body` and `id`
    /// (outside the lock) and kept for the viewers who come next.
    func event(rows: [Row], startIndex: Int, isLast: Bool, position: ResumeToken.Position,
               now: ContinuousClock.Instant = .now,
               body makeBody: () -> [UInt8], id makeID: () -> String) -> FramedSSEEvent {
        guard !rows.isEmpty else { return FramedSSEEvent(event: "rows", id: makeID(), body: makeBody()) }
        let found = entries.withLock { entries in
            entries.removeAll { now - $0.made > Self.lifetime }
            return entries.last { $0.startIndex == startIndex && $0.isLast == isLast && $0.rows.holds(rows) }
        }
        if let found, found.position == position { return found.event }
        let event = FramedSSEEvent(event: "rows", id: makeID(), body: found?.event.body ?? makeBody())
        guard event.body.count <= Self.maxBodyBytes else { return event }
        let entry = Entry(rows: HeldBuffer(rows), startIndex: startIndex, isLast: isLast, event: event, position: position, made: now)
        entries.withLock { entries in
            entries.removeAll { $0.startIndex == startIndex && $0.isLast == isLast && $0.rows.holds(rows) }
            entries.append(entry)
            var bytes = entries.reduce(0) { $0 + $1.event.body.count }
            while entries.count > Self.capacity || bytes > Self.maxBytes {
                bytes -= entries.removeFirst().event.body.count
            }
        }
        return event
    }

    /// How many entries are held (tests).
    var count: Int { entries.withLock { $0.count } }
}
