import HTTPServer
import Locking
import Testing
@testable import RowstreamKit

/// ``LivePartitions``: one feed per identity, loading as that identity's viewer wherever the refresh runs; a feed
/// stops with its last viewer, and one retired between its hand-out and its subscription ends that stream (its
/// client reconnects to a running feed) rather than leaving it without changes; the bound, and room made by a
/// partition nobody subscribed to; never on the cluster's channel.
@Suite struct LivePartitionsTests {
    /// Who each load ran as. Thread-safe: one `Lock`.
    final class Loads: Sendable {
        let names = Lock<[String]>([])
    }

    /// A live table partitioned by viewer name (no name: refused), at most `max` partitions, recording its loads.
    static func table(_ loads: Loads, max: Int = 2) -> TableBinding {
        let source = BatchSource<Person, Int>(initialToken: 0) { _ in
            loads.names.withLock { $0.append(Viewer.current.name) }
            return .completed(Array(people(3)))
        }
        var binding = peopleTable(source, name: "mine", batchSize: 5)
        binding.live = LiveUpdates()
        binding.live?.maxPartitions = max
        binding.partition = { viewer in viewer.name.isEmpty ? .refused("who are you?") : .identity("id-" + viewer.name) }
        return binding
    }

    static func writer() -> StreamWriter { StreamWriter { _ in } }

    @Test func eachIdentityHasAFeedThatLoadsAsItsViewerAndStopsWithItsLastViewer() async throws {
        let loads = Loads()
        let partitions = LivePartitions(table: Self.table(loads))
        defer { partitions.stop() }
        let alice = try partitions.feed(for: Viewer(name: "alice"))
        #expect(try partitions.feed(for: Viewer(name: "alice")) === alice, "one feed per identity")
        let bob = try partitions.feed(for: Viewer(name: "bob"))
        #expect(bob !== alice && partitions.count == 2)
        #expect(throws: HTTPError.self) { try partitions.feed(for: Viewer(name: "")) }

        // A refresh runs outside any request (no viewer bound here): it loads as the partition's viewer.
        _ = await alice.refresh()
        _ = await bob.refresh()
        #expect(loads.names.withLock { $0 } == ["alice", "bob"])

        let first = Self.writer(), second = Self.writer()
        alice.subscribe(first)
        alice.subscribeTagged(second, when: { true })
        first.close()
        #expect(partitions.count == 2, "a viewer is left")
        second.close()
        #expect(partitions.count == 1, "the last viewer left: Alice's feed stopped")
        #expect(partitions.existingFeed(for: Viewer(name: "alice")) == nil)

        // A stream handed the retired feed before it subscribed: ended, so that its client reconnects.
        let late = Self.writer()
        alice.subscribe(late)
        #expect(!late.isOpen && alice.viewerCount == 0)
        // Alice's next stream gets a new feed.
        #expect(try partitions.feed(for: Viewer(name: "alice")) !== alice)
    }

    @Test func atMostMaxPartitionsAndAnUnsubscribedOneMakesRoom() throws {
        let partitions = LivePartitions(table: Self.table(Loads()))
        defer { partitions.stop() }
        let alice = try partitions.feed(for: Viewer(name: "alice"))
        alice.subscribe(Self.writer())
        _ = try partitions.feed(for: Viewer(name: "bob"))   // its stream never opened
        // Full, but Bob's partition has no viewer: it makes room for Carol's.
        let carol = try partitions.feed(for: Viewer(name: "carol"))
        carol.subscribe(Self.writer())
        #expect(partitions.existingFeed(for: Viewer(name: "bob")) == nil && partitions.count == 2)
        do {
            _ = try partitions.feed(for: Viewer(name: "dave"))
            Issue.record("a third identity with viewers in both partitions")
        } catch {
            #expect(error.status == .serviceUnavailable)
        }
    }

    @Test func partitionedTablesNeverUseTheClustersChannel() {
        let asked = Lock<[String]>([])
        let feeds = LiveFeeds([Self.table(Loads())], channel: { name in asked.withLock { $0.append(name) }; return nil })
        defer { feeds.stop() }
        #expect(feeds.partitioned["mine"] != nil && feeds.shared.isEmpty && feeds.isLive("mine"))
        #expect(asked.withLock { $0 }.isEmpty)
    }
}
