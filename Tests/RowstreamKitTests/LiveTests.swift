import Foundation
import RowstreamKit
import Locking
import TestSupport
import Testing

/// Live updates of a code-defined table, live on port 0: refresh, keyed diff, the same bytes to every viewer.
@Suite("Live updates")
struct LiveTests {
    /// A store whose records the test changes between refreshes. Thread-safe: one `Lock`.
    final class Store: Sendable {
        let people = Lock(LiveTests.crowd(1...8))
        func set(_ value: [Person]) { people.withLock { $0 = value } }
        var all: [Person] { people.withLock { $0 } }
    }

    static func crowd(_ ids: ClosedRange<Int>) -> [Person] { people(ids.upperBound).filter { ids.contains($0.id) } }

    static func table(_ store: Store, batchSize: Int = 5) -> TableBinding {
        let source = BatchSource<Person, Int>(initialToken: 0) { offset in
            let all = store.all
            let end = min(offset + batchSize, all.count)
            let batch = Array(all[min(offset, end)..<end])
            return end >= all.count ? .completed(batch) : .items(batch, next: end)
        }
        var binding = peopleTable(source, name: "live", batchSize: batchSize)
        binding.live = LiveUpdates()
        return binding
    }

    static func renamed(_ person: Person, _ name: String) -> Person {
        Person(id: person.id, name: name, joined: person.joined, homepage: person.homepage, status: person.status,
               seats: person.seats)
    }

    @Test("a refresh streams insert, update and remove by key, the same bytes to every viewer; duplicates: the later wins")
    func refreshDiffsByKey() async throws {
        let store = Store()
        let server = try startServer([Self.table(store, batchSize: 6)])
        defer { server.shutdown() }
        let first = try await SSEClient(port: server.port, path: "/tables/live/stream")
        let second = try await SSEClient(port: server.port, path: "/tables/live/stream")
        for stream in [first, second] {
            #expect(rowKeys(try await stream.next(named: "rows").event.data) == ["p1", "p2", "p3", "p4", "p5", "p6"])
        }
        // Unchanged: nothing to send.
        let quiet = try object(try await fetch(server.port, "POST", "/tables/live/refresh").body)
        #expect(quiet["inserted"] as? Int == 0 && quiet["updated"] as? Int == 0 && quiet["removed"] as? Int == 0)
        #expect(quiet["viewers"] as? Int == 2)

        // New 20 and 21 on top, 2 renamed, 3 gone, and 4 twice (the later copy wins); 5 and 6 leave the head.
        var changed = store.all
        changed[1] = Self.renamed(changed[1], "Renamed <2>")
        changed.remove(at: 2)
        let duplicate = Self.renamed(changed[2], "Later four")
        changed.insert(contentsOf: [people(21)[19], people(21)[20]], at: 0)
        changed.insert(duplicate, at: 5)
        store.set(changed)
        let answer = try await fetch(server.port, "POST", "/tables/live/refresh")
        #expect(answer.status == 200)
        let summary = try object(answer.body)
        #expect(summary["inserted"] as? Int == 2 && summary["updated"] as? Int == 2 && summary["removed"] as? Int == 1)

        var seen: [[String]] = []
        for stream in [first, second] {
            let remove = try await stream.next(named: "remove").event
            let update = try await stream.next(named: "update").event
            let insert = try await stream.next(named: "insert").event
            #expect(try object(remove.data)["keys"] as? [String] == ["p3"])
            #expect(rowKeys(update.data) == ["p2", "p4"])
            #expect(update.data.contains("Renamed &lt;2&gt;") && update.data.contains("Later four"))
            #expect(!update.data.contains("data-index"), "live rows carry no index")
            #expect(rowKeys(insert.data) == ["p20", "p21"])
            seen.append([remove.data, update.data, insert.data])
        }
        #expect(seen[0] == seen[1], "one computation, the same events for every viewer")
    }

    @Test("a table that is not live has no refresh route; the first refresh without a viewer only records the head")
    func refreshRoute() async throws {
        let store = Store()
        let plain = peopleTable(offsetSource(people(3)), name: "plain")
        let server = try startServer([Self.table(store), plain])
        defer { server.shutdown() }
        #expect(try await fetch(server.port, "POST", "/tables/plain/refresh").status == 404)
        let baseline = try object(try await fetch(server.port, "POST", "/tables/live/refresh").body)
        #expect(baseline["baseline"] as? Bool == true)
        store.set(Self.crowd(2...8))
        let next = try object(try await fetch(server.port, "POST", "/tables/live/refresh").body)
        #expect(next["removed"] as? Int == 1 && next["baseline"] as? Bool == false)
        #expect(next["inserted"] as? Int == 0, "6 came up from below: not an insert at the top")
    }
}

extension LiveTests {
    @Test("a live table's stream stays open after complete, gets changes, and a reconnect after complete is not a 204")
    func completeStaysOpen() async throws {
        let store = Store()
        let server = try startServer([Self.table(store, batchSize: 20)])
        defer { server.shutdown() }
        let stream = try await SSEClient(port: server.port, path: "/tables/live/stream")
        #expect(rowKeys(try await stream.next(named: "rows").event.data).count == 8)
        let complete = try await stream.next(named: "complete").event
        store.set(Self.crowd(1...8).map { $0.id == 5 ? Self.renamed($0, "Five") : $0 })
        #expect(try object(try await fetch(server.port, "POST", "/tables/live/refresh").body)["updated"] as? Int == 1)
        #expect(rowKeys(try await stream.next(named: "update").event.data) == ["p5"])

        let again = try await SSEClient(port: server.port, path: "/tables/live/stream", lastEventID: complete.id)
        #expect(again.status == 200)
        _ = try await again.next(named: "session")
        #expect(try object(try await again.next(named: "complete").event.data)["total"] as? Int == 8)
        store.set(Self.crowd(2...8))
        _ = try await fetch(server.port, "POST", "/tables/live/refresh")
        #expect(try object(try await again.next(named: "remove").event.data)["keys"] as? [String] == ["p1"])
    }

    @Test("with an interval the server refreshes by itself while someone watches")
    func interval() async throws {
        let store = Store()
        var binding = Self.table(store, batchSize: 20)
        binding.live = LiveUpdates(every: .seconds(1))
        let server = try startServer([binding])
        defer { server.shutdown() }
        let stream = try await SSEClient(port: server.port, path: "/tables/live/stream")
        _ = try await stream.next(named: "complete")
        store.set([people(30)[29]] + Self.crowd(1...8))
        // No POST: the next event on the stream is the interval's insert (SSEClient's reads are bounded).
        let (insert, skipped) = try await stream.next(named: "insert")
        #expect(rowKeys(insert.data) == ["p30"])
        #expect(skipped.allSatisfy { $0.event == "heartbeat" || $0.event == "update" })
    }
}
