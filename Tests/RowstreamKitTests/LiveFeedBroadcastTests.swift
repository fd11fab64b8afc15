import HTTPServer
import Locking
import Testing
@testable import RowstreamKit

/// `LiveFeed` hands each encoding of a change to its group in one broadcast: the plain bytes to table streams,
/// the tagged bytes to page streams (those that want them now); finished and closed streams get nothing.
@Suite struct LiveFeedBroadcastTests {
    /// What sink writers received, by name. Thread-safe: one `Lock`.
    final class Received: Sendable {
        private let bytes = Lock<[String: [[UInt8]]]>([:])
        func writer(_ name: String) -> StreamWriter {
            StreamWriter { [self] output in
                if case .bytes(let data) = output { bytes.withLock { $0[name, default: []].append(data) } }
            }
        }
        func of(_ name: String) -> [[UInt8]] { bytes.withLock { $0[name] ?? [] } }
    }

    @Test func eachEncodingGoesToItsGroupOnce() async throws {
        let store = LiveTests.Store()
        let feed = LiveFeed(table: LiveTests.table(store))
        let received = Received()
        let plain = ["a", "b", "finished"].map { ($0, received.writer($0)) }
        for (_, writer) in plain { feed.subscribe(writer) }
        plain[2].1.finish()   // closes it, too: it is gone from the feed
        let wants = Lock(["in": true, "out": false, "gone": true])
        let tagged = ["in", "out", "gone"].map { ($0, received.writer($0)) }
        for (name, writer) in tagged { feed.subscribeTagged(writer, when: { wants.withLock { $0[name] == true } }) }
        tagged[2].1.close()   // the stream ended: unsubscribed
        #expect(feed.viewerCount == 4, "2 plain (a sink writer closes when finished), 2 tagged")

        #expect(await feed.refresh().summary?.baseline == true)
        var changed = store.all
        changed[0] = LiveTests.renamed(changed[0], "Renamed one")
        store.set(changed)
        let summary = try #require(await feed.refresh().summary)
        #expect(summary.updated == 1 && summary.viewers == 4)

        let plainBytes = try #require(received.of("a").first)
        #expect(String(decoding: plainBytes, as: UTF8.self).hasPrefix("event: update\n"))
        #expect(received.of("a") == [plainBytes] && received.of("b") == [plainBytes])
        #expect(received.of("finished").isEmpty)
        let taggedBytes = try #require(received.of("in").first)
        #expect(String(decoding: taggedBytes, as: UTF8.self).hasPrefix("event: live:update\n"))
        #expect(received.of("in") == [taggedBytes])
        #expect(received.of("out").isEmpty && received.of("gone").isEmpty)

        // Wanting is asked at each change.
        wants.withLock { $0["out"] = true }
        changed[0] = LiveTests.renamed(changed[0], "Renamed again")
        store.set(changed)
        _ = await feed.refresh()
        #expect(received.of("out").count == 1 && received.of("in").count == 2)

        // A refresh that finds no change says so (`fresh`: the rows are current as of now), encoded once per group.
        let unchanged = try #require(await feed.refresh().summary)
        #expect(unchanged.inserted == 0 && unchanged.updated == 0 && unchanged.removed == 0 && !unchanged.baseline)
        #expect(received.of("a").count == 3 && received.of("b").count == 3 && received.of("in").count == 3)
        #expect(received.of("a").last == Array("event: fresh\ndata: {}\n\n".utf8))
        #expect(received.of("in").last == Array("event: live:fresh\ndata: {}\n\n".utf8))
        #expect(received.of("out").last == received.of("in").last)
        feed.stop()
    }
}
