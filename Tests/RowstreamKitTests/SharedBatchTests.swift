import HTTPServer
import HTTPServerTesting
import RowstreamTesting
import Tables
import TestSupport
import Testing
@testable import RowstreamKit

/// Arrivals as cheap as a broadcast (issue 17): viewers who get the very same items at the same place (the first
/// page from a cache) share one making of their rows and one rendering of their `rows` event, each event with the
/// viewer's own head; new items are made and rendered anew; both caches are bounded.
@Suite("Arrivals share a batch")
struct SharedBatchTests {
    /// A table whose loader returns `load()`'s array for the first batch (as a page cache returns its page), then
    /// nothing; its row template counts its runs in `made`.
    static func table(made: Counter, load: @escaping @Sendable () -> [String]) -> TableBinding {
        TableBinding(name: "t", title: "T", columns: [TableColumn("Value")],
                     source: BatchSource<String, Int>(initialToken: 0) { offset in
                         offset == 0 ? .items(load(), next: 1) : .completed([])
                     }) { value, row in
            made.increment()
            row.key = value
            row.text(value)
        }
    }

    /// The first `rows` event of a new viewer of `/tables/t/stream`.
    static func firstRows(_ server: RowstreamTestServer) async throws -> ReceivedEvent {
        let stream = try await server.client.stream("/tables/t/stream")
        defer { stream.close() }
        return try await stream.next(named: "rows").event
    }

    @Test("viewers at the same place: the rows made once, the same bytes, an id that resumes after them")
    func arrivalsShareOneMaking() async throws {
        let items = ["a<1>", "b", "c"]
        let made = Counter()
        let server = try RowstreamTestServer([Self.table(made: made) { items }])
        defer { server.shutdown() }
        var events: [ReceivedEvent] = []
        for _ in 0..<4 { events.append(try await Self.firstRows(server)) }
        #expect(made.count == items.count, "the template ran once per item, not once per viewer")
        #expect(Set(events.map(\.data)).count == 1)
        #expect(events[0].data.hasPrefix("<tr data-key=\"a&lt;1&gt;\" data-index=\"0\">"))
        // The shared next position keeps its sealed text once a second viewer holds it: the viewers after the first
        // carry one id (the whole event shared), not one sealed anew each (the first viewer's text was dropped).
        #expect(Set(events.dropFirst().map(\.id)).count == 1, "ids: \(events.map(\.id))")
        // Each viewer's id is a resume token that continues after the three rows.
        for event in events {
            let again = try await server.client.stream("/tables/t/stream", lastEventID: event.id)
            defer { again.close() }
            let session = try object(try await again.next(named: "session").event.data)
            let next = try #require(session["next"] as? String)
            #expect(await server.client.post(next).status == .accepted)
            let complete = try await again.next(named: "complete").event
            #expect(try object(complete.data)["total"] as? Int == 3)
        }
    }

    @Test("new items from the loader are made and rendered anew: nothing shared that was not the same array")
    func newItemsAreNotShared() async throws {
        let version = Counter()
        let made = Counter()
        let server = try RowstreamTestServer([Self.table(made: made) {
            version.increment()
            return ["v\(version.count)"]
        }])
        defer { server.shutdown() }
        let first = try await Self.firstRows(server)
        let second = try await Self.firstRows(server)
        #expect(first.data.contains(">v1<") && second.data.contains(">v2<"))
        #expect(made.count == 2)
    }

    @Test("a partitioned table (forward) shares nothing: each viewer's positions are sealed for it alone")
    func viewerScopedTablesShareNothing() async throws {
        let items = ["a", "b"]
        let plainMade = Counter()
        let plain = Self.table(made: plainMade) { items }
        let scopedMade = Counter()
        var scoped = Self.table(made: scopedMade) { items }
        scoped.partition = { _ in .identity("one viewer") }
        for _ in 0..<2 {
            _ = try await plain.loadBatch(at: .first)
            _ = try await scoped.loadBatch(at: .first)
        }
        #expect(plainMade.count == items.count)
        #expect(scopedMade.count == 2 * items.count)
    }

    @Test("the shared next position is sealed at most twice, however many viewers hold it")
    func sharedPositionSealedOnce() async throws {
        let items = ["a", "b"]
        let table = Self.table(made: Counter()) { items }
        var texts: [String] = []
        for _ in 0..<4 {
            guard case .open(let open)? = try await table.loadBatch(at: .first).next else {
                Issue.record("the next position is not kept open"); return
            }
            texts.append(open.sealed())
            open.forgetSealed()  // as a session does once its event took the text
        }
        #expect(Set(texts).count == 1)
        // The first viewer's text was dropped; the second sealed it again and it is kept for all who follow.
        let buffers = texts.map(OpenPositionTests.storage)
        #expect(buffers[1] == buffers[2] && buffers[2] == buffers[3], "one kept text, not one sealed per viewer")
    }

    @Test("the rows cache is bounded: entries, batch size and lifetime")
    func recentBatchesAreBounded() {
        typealias Recent = RecentBatches<Int, Int>
        let recent = Recent()
        let start = ContinuousClock.now
        let arrays = (0..<(Recent.capacity + 2)).map { index in [index, index + 1] }
        for (index, items) in arrays.enumerated() {
            recent.remember(items: items, rows: [Row(key: "\(index)")], next: index, position: .first, now: start)
        }
        #expect(recent.count == Recent.capacity)
        #expect(recent.entry(for: arrays[0], now: start) == nil, "the oldest went")
        #expect(recent.entry(for: arrays.last!, now: start)?.rows.first?.key == "\(arrays.count - 1)")
        #expect(recent.entry(for: arrays.last!.map { $0 }, now: start) == nil, "equal items in another array: no entry")
        let big = Array(0...Recent.maxItems)
        recent.remember(items: big, rows: [], next: nil, position: nil, now: start)
        #expect(recent.entry(for: big, now: start) == nil, "a batch past the item bound is not kept")
        #expect(recent.entry(for: arrays.last!, now: start + Recent.lifetime + .seconds(1)) == nil)
        #expect(recent.count == 0, "expired entries go")
    }

    @Test("a batch's event is rendered once per place: the body shared, the id each viewer's own")
    func rowsEventsShareTheirBody() {
        let table = Self.table(made: Counter()) { [] }
        let events = StreamEvents(table: table)
        let rows = [Row(key: "a", cells: [.text("line\none")]), Row(key: "b")]
        let first = events.rows(rows, startIndex: 0, next: .cursor("c1"))
        let same = events.rows(rows, startIndex: 0, next: .cursor("c1"))
        #expect(same.head == first.head && Self.address(same.body) == Self.address(first.body), "the whole event shared")
        let other = events.rows(rows, startIndex: 0, next: .cursor("c2"))
        #expect(other.id != first.id, "another next place: its own id")
        #expect(Self.address(other.body) == Self.address(first.body), "the body shared")
        let copy = rows.map { $0 }
        #expect(Self.address(events.rows(copy, startIndex: 0, next: .cursor("c1")).body) != Self.address(first.body),
                "equal rows in another array: rendered anew")
        #expect(Self.address(events.rows(rows, startIndex: 5, next: .cursor("c1")).body) != Self.address(first.body),
                "another first index: rendered anew")
        let last = events.rows(rows, startIndex: 0, next: nil)
        #expect(Self.address(last.body) != Self.address(first.body), "the last batch: its own body")
        // The wire bytes: the rows as data lines (a cell's line break as a new `data:` line), the last batch's marker.
        let text = String(decoding: last.bytes, as: UTF8.self)
        #expect(text.hasPrefix("event: rows\nid: ") && text.contains("line\ndata: one")
                && text.hasSuffix("<!--rs:last-->\n\n"))
        #expect(last.body == Array(first.body.dropLast(2)) + StreamEvents.lastBatchMarker + Array("\n\n".utf8),
                "the same rows, the same data lines")
    }

    @Test("the rendered events are bounded: entries, bytes, body size and lifetime; another place is not kept")
    func sharedBodiesAreBounded() {
        let bodies = SharedBatchBodies()
        let start = ContinuousClock.now
        let rows = [Row(key: "a")]
        func keep(_ rows: [Row], at index: Int = 0, bytes: Int = 10, now: ContinuousClock.Instant = start) {
            let event = FramedSSEEvent(event: "rows", id: "id", body: [UInt8](repeating: 1, count: bytes))
            bodies.keep(event, rows: rows, startIndex: index, isLast: false, position: .start, now: now)
        }
        func held(_ rows: [Row], at index: Int = 0, now: ContinuousClock.Instant = start) -> Bool {
            bodies.entry(for: rows, startIndex: index, isLast: false, now: now) != nil
        }
        keep(rows)
        #expect(held(rows) && !held(rows, at: 5) && !held(rows.map { $0 }))
        #expect(bodies.entry(for: rows, startIndex: 0, isLast: true, now: start) == nil, "the last batch is another place")
        keep(rows)
        #expect(bodies.count == 1, "kept again in place of the entry of the same rows")
        #expect(!held(rows, now: start + SharedBatchBodies.lifetime + .seconds(1)), "an expired entry is not shared")
        #expect(bodies.count == 0, "expired entries go")
        let many = (0..<(SharedBatchBodies.capacity + 3)).map { [Row(key: "\($0)")] }
        for rows in many { keep(rows) }
        #expect(bodies.count == SharedBatchBodies.capacity)
        #expect(!held(many[0]) && held(many.last!), "the oldest went")
        let large = (0..<6).map { [Row(key: "large \($0)")] }
        for rows in large { keep(rows, bytes: SharedBatchBodies.maxBodyBytes) }
        #expect(bodies.count * SharedBatchBodies.maxBodyBytes <= SharedBatchBodies.maxBytes)
        let huge = [Row(key: "huge")]
        keep(huge, bytes: SharedBatchBodies.maxBodyBytes + 1)
        #expect(!held(huge), "a body past the bound is never kept")
        keep([])
        #expect(!held([]), "an empty batch is never kept")
    }

    static func address(_ bytes: [UInt8]) -> UnsafePointer<UInt8>? {
        bytes.withUnsafeBufferPointer { $0.baseAddress }
    }
}
