import HTTPServer
import Locking
import Tables

/// The `rows` events a table's viewers got last, so that viewers who get the very same rows at the same place (the
/// rows a table's pipeline shared, ``RecentBatches``: above all the first batch, in a storm of arrivals) share one
/// rendering: ``StreamEvents`` makes a batch's event, and takes its body from here when an entry holds these rows
/// (its head too when the next place is the same), else renders it and keeps it here. Every viewer's event then
/// carries that one array as its body, written through the connections' shared-write path as a live table's
/// broadcasts are; each viewer's `id:` (its resume token) is in its own head. A table whose positions are sealed for
/// each viewer never shares rows, so never ids. A holder, as ``RecentBatches`` is for rows: it makes nothing.
///
/// Keyed by identity (``HeldBuffer``): the rows array an entry holds (so it cannot be freed and its address reused
/// while the entry lives), the index of its first row and whether it is the last batch. Bounded: at most
/// ``capacity`` entries, each at most ``lifetime`` old, ``maxBytes`` of bodies in all (the oldest go first), no body
/// over ``maxBodyBytes``.
///
/// Thread-safe: one `Lock`; events are rendered outside it.
final class SharedBatchBodies: Sendable {
    struct Entry: Sendable {
        let rows: HeldBuffer<Row>
        let startIndex: Int
        let isLast: Bool
        /// The `rows` event, its body shared by every entry of these rows, its head marked shared: every viewer who
        /// comes next at the same place gets this very event (a gzip stream's blocks of both made once).
        let event: FramedSSEEvent
        /// The next place its id resumes at.
        let position: ResumeToken.Position
        let made: ContinuousClock.Instant
    }

    static var capacity: Int { 8 }
    static var lifetime: Duration { .seconds(10) }
    static var maxBytes: Int { 4 << 20 }
    static var maxBodyBytes: Int { 1 << 20 }

    private let entries = Lock<[Entry]>([])

    /// The entry of this very `rows` array at `startIndex` (`isLast`: the final batch), if one is held and young
    /// enough.
    func entry(for rows: [Row], startIndex: Int, isLast: Bool, now: ContinuousClock.Instant = .now) -> Entry? {
        guard !rows.isEmpty else { return nil }
        return entries.withLock { entries in
            entries.removeAll { now - $0.made > Self.lifetime }
            return entries.last { $0.startIndex == startIndex && $0.isLast == isLast && $0.rows.holds(rows) }
        }
    }

    /// Keeps `event`, the `rows` event of `rows` at `startIndex` whose id resumes at `position`, in place of any
    /// entry of these rows there; not an empty batch's, nor a body over ``maxBodyBytes``.
    func keep(_ event: FramedSSEEvent, rows: [Row], startIndex: Int, isLast: Bool, position: ResumeToken.Position,
              now: ContinuousClock.Instant = .now) {
        guard !rows.isEmpty, event.body.count <= Self.maxBodyBytes else { return }
        let entry = Entry(rows: HeldBuffer(rows), startIndex: startIndex, isLast: isLast,
                          event: event.withSharedHead(), position: position, made: now)
        entries.withLock { entries in
            entries.removeAll { $0.startIndex == startIndex && $0.isLast == isLast && $0.rows.holds(rows) }
            entries.append(entry)
            var bytes = entries.reduce(0) { $0 + $1.event.body.count }
            while entries.count > Self.capacity || bytes > Self.maxBytes {
                bytes -= entries.removeFirst().event.body.count
            }
        }
    }

    /// How many entries are held (tests).
    var count: Int { entries.withLock { $0.count } }
}
