import HTTPServer
import Locking
import Synchronization
import TestSupport
import Testing
@testable import RowstreamKit

/// Three `LiveFeed`s of one table as three instances of a cluster, over the in-memory ``InMemoryLiveCluster``:
/// one upstream refresh per interval for all of them, every viewer of every instance gets each change once, the
/// lease moves when its holder stops or dies, gaps re-sync, and an unreachable store means refreshing alone.
/// Intervals are ticked by the test (`tick()`), not by a clock.
@Suite("Live cluster")
struct LiveClusterTests {
    /// A logger that keeps its lines. Thread-safe: one `Lock`.
    final class Lines: RowstreamLogger {
        let lines = Lock<[String]>([])
        func log(_ level: RowstreamLogLevel, _ message: String) { lines.withLock { $0.append(message) } }
        func count(containing text: String) -> Int { lines.withLock { $0.count { $0.contains(text) } } }
    }

    /// Upstream fetches of the head. Thread-safe: atomic.
    final class Fetches: Sendable {
        let count = Atomic<Int>(0)
    }

    /// Three instances of the live table over one store, each with two viewers, following the cluster's log.
    struct Cluster {
        let store = LiveTests.Store()
        let fetches = Fetches()
        let cluster = InMemoryLiveCluster()
        let received = LiveFeedBroadcastTests.Received()
        let logger = Lines()
        var feeds: [LiveFeed] = []
        var handles: [InMemoryLiveCluster.Channel] = []

        init(forwardTimeout: Duration = LiveClusterDefaults.forwardTimeout) async throws {
            let table = Self.table(store, fetches: fetches)
            for instance in 0..<3 {
                let handle = cluster.handle("live", forwardTimeout: forwardTimeout)
                let feed = LiveFeed(table: table, channel: handle, logger: logger)
                for viewer in 0..<2 { feed.subscribe(received.writer("\(instance).\(viewer)")) }
                feed.start()
                feeds.append(feed)
                handles.append(handle)
            }
            let feeds = feeds
            #expect(await eventually { feeds.allSatisfy(\.isSharing) })
        }

        /// The live table over `store`, counting its upstream fetches of the head.
        static func table(_ store: LiveTests.Store, fetches: Fetches) -> TableBinding {
            let source = BatchSource<Person, Int>(initialToken: 0) { (offset: Int) in
                if offset == 0 { fetches.count.add(1, ordering: .relaxed) }
                let all = store.all
                let end = min(offset + 5, all.count)
                return end >= all.count ? .completed(Array(all[offset..<end])) : .items(Array(all[offset..<end]), next: end)
            }
            var binding = peopleTable(source, name: "live", batchSize: 5)
            binding.live = LiveUpdates()
            return binding
        }

        /// A cluster whose first interval ran: one instance holds the lease, every one applied the first head.
        static func settled(forwardTimeout: Duration = LiveClusterDefaults.forwardTimeout) async throws -> Cluster {
            let cluster = try await Cluster(forwardTimeout: forwardTimeout)
            await cluster.tickAll()
            #expect(await cluster.waitForHead(1))
            return cluster
        }

        var fetchCount: Int { fetches.count.load(ordering: .relaxed) }

        /// One interval on every instance (in turn, as their tickers would).
        func tickAll(_ feeds: [LiveFeed]? = nil) async {
            for feed in feeds ?? self.feeds { await feed.tick() }
        }

        /// Renames person `index` (an update of one row).
        func rename(_ index: Int, _ name: String) {
            var changed = store.all
            changed[index] = LiveTests.renamed(changed[index], name)
            store.set(changed)
        }

        /// Waits until every instance in `feeds` applied the head numbered `sequence`.
        func waitForHead(_ sequence: UInt64, on feeds: [LiveFeed]? = nil) async -> Bool {
            let feeds = feeds ?? self.feeds
            return await eventually {
                feeds.allSatisfy { $0.state.withLock { $0.cluster.position?.sequence } == sequence }
            }
        }

        /// Waits until every viewer of `instances` got `count` messages (a head is applied before its bytes are
        /// written); true if they did and none got more.
        func viewersGot(_ count: Int, on instances: [Int] = [0, 1, 2]) async -> Bool {
            await eventually { instances.allSatisfy { messages($0).allSatisfy { $0.count >= count } } }
                && instances.allSatisfy { messages($0).allSatisfy { $0.count == count } }
        }

        /// Each viewer's messages, by instance.
        /// (The changes: a `fresh` event, a head applied again unchanged, is not one.)
        func messages(_ instance: Int) -> [[[UInt8]]] {
            (0..<2).map { received.of("\(instance).\($0)").filter { !$0.starts(with: Array("event: fresh\n".utf8)) } }
        }

        var holders: [Int] { feeds.indices.filter { feeds[$0].holdsLease } }

        func stop() { feeds.forEach { $0.stop() } }
    }

    @Test("3 instances: one upstream fetch per interval in all, each change reaches every viewer of every instance once")
    func oneRefreshPerInterval() async throws {
        let cluster = try await Cluster()
        defer { cluster.stop() }
        await cluster.tickAll()
        #expect(cluster.fetchCount == 1, "the baseline: one instance fetched")
        #expect(cluster.holders.count == 1)
        #expect(await cluster.waitForHead(1))
        for round in 1...3 {
            cluster.rename(0, "Renamed \(round)")
            await cluster.tickAll()
            #expect(cluster.fetchCount == round + 1, "one fetch per interval across the three instances")
            #expect(await cluster.waitForHead(UInt64(round + 1)))
            #expect(await cluster.viewersGot(round), "each change once")
            let expected = try #require(cluster.messages(0).first?.last)
            #expect(String(decoding: expected, as: UTF8.self).contains("Renamed \(round)"))
            for instance in 0..<3 {
                for viewer in cluster.messages(instance) {
                    #expect(viewer.count == round, "each change once")
                    #expect(viewer.last == expected, "the same bytes on every instance")
                }
            }
        }
        #expect(cluster.holders.count == 1)
        #expect(cluster.cluster.publications(table: "live") == 4)
    }

    @Test("the holder stops: its lease is released and another instance refreshes from its next tick")
    func leaseMovesWhenHolderStops() async throws {
        let cluster = try await Cluster.settled()
        defer { cluster.stop() }
        let holder = try #require(cluster.holders.first)
        await cluster.feeds[holder].stop()?.value
        let others = cluster.feeds.indices.filter { $0 != holder }.map { cluster.feeds[$0] }
        cluster.rename(1, "After the holder stopped")
        await cluster.tickAll(others)
        #expect(cluster.fetchCount == 2)
        #expect(others.count { $0.holdsLease } == 1, "one of the others took the lease at its first tick")
        #expect(await cluster.waitForHead(2, on: others))
        #expect(await cluster.viewersGot(1, on: cluster.feeds.indices.filter { $0 != holder }))
        #expect(cluster.messages(holder).allSatisfy { $0.isEmpty }, "a stopped instance sends nothing")
    }

    @Test("the holder dies without releasing: nobody else refreshes until its lease expires, then one takes it over")
    func leaseMovesWhenHolderDies() async throws {
        let cluster = try await Cluster.settled()
        defer { cluster.stop() }
        let holder = try #require(cluster.holders.first)
        let dead = cluster.feeds[holder]
        let others = cluster.feeds.filter { $0 !== dead }
        // The dead instance ticks no more; while its lease lasts nobody refreshes.
        cluster.rename(2, "While the holder is dead")
        await cluster.tickAll(others)
        #expect(cluster.fetchCount == 1)
        cluster.cluster.advance(by: dead.leaseDuration, table: "live")
        await cluster.tickAll(others)
        #expect(cluster.fetchCount == 2, "the lease expired: one of the others refreshed")
        #expect(others.count { $0.holdsLease } == 1)
        #expect(await cluster.waitForHead(2))
        // The old holder comes back (a long pause): its lease is gone, it does not refresh.
        await dead.tick()
        #expect(cluster.fetchCount == 2 && !dead.holdsLease)
        #expect(await cluster.viewersGot(1))
    }

    @Test("an instance that missed heads re-syncs: the changes since its last head in one diff, never a partial run")
    func gapResyncs() async throws {
        let cluster = try await Cluster.settled()
        defer { cluster.stop() }
        let slow = try #require(cluster.feeds.indices.first { !cluster.feeds[$0].holdsLease })
        cluster.handles[slow].paused.store(true, ordering: .relaxed)
        let others = cluster.feeds.indices.filter { $0 != slow }
        cluster.rename(0, "First change")
        await cluster.tickAll()
        #expect(await cluster.waitForHead(2, on: others.map { cluster.feeds[$0] }))
        cluster.rename(1, "Second change")
        await cluster.tickAll()
        #expect(await cluster.waitForHead(3, on: others.map { cluster.feeds[$0] }))
        // The log is trimmed past the slow instance's place before it reads again.
        cluster.cluster.trim(keepingLast: 1, table: "live")
        cluster.handles[slow].paused.store(false, ordering: .relaxed)
        #expect(await cluster.waitForHead(3))
        #expect(await cluster.viewersGot(1, on: [slow]))
        #expect(await cluster.viewersGot(2, on: others))
        #expect(cluster.feeds[slow].counters.resyncs.load(ordering: .relaxed) == 1)
        for viewer in cluster.messages(slow) {
            #expect(viewer.count == 1, "one re-sync")
            let text = String(decoding: viewer.joined(), as: UTF8.self)
            #expect(text.contains("First change") && text.contains("Second change"))
        }
    }

    @Test("the store down: every instance refreshes alone, viewers miss nothing, logged once; back: one refresher again")
    func storeDownRefreshesAlone() async throws {
        let cluster = try await Cluster.settled()
        defer { cluster.stop() }
        cluster.cluster.setAvailable(false, table: "live")
        let feeds = cluster.feeds
        #expect(await eventually { feeds.allSatisfy { !$0.isSharing } })
        cluster.rename(0, "While down")
        await cluster.tickAll()
        #expect(cluster.fetchCount == 4, "each instance fetched for itself")
        #expect(await cluster.viewersGot(1))
        // Ticks while down keep refreshing alone, and the warning is not repeated.
        await cluster.tickAll()
        #expect(cluster.fetchCount == 7)
        #expect(cluster.logger.count(containing: "unreachable") == 3, "once per instance")

        cluster.cluster.setAvailable(true, table: "live")
        #expect(await eventually { feeds.allSatisfy(\.isSharing) })
        #expect(cluster.logger.count(containing: "shared again") == 3)
        // Each instance refreshed alone, so each asks for a refresh as it joins again. Nobody holds the lease after
        // the outage: an instance with viewers takes it for the first request and refreshes, answering it, and
        // answers the later ones as holder. That is one fetch, or two or three when the requests reach it while
        // a refresh runs or after it ended (one refresh runs at a time, one more may queue behind it). Before,
        // every request was dropped: still 7 here, and a POST-only table stayed apart until its next POST.
        // `isSharing` turns true as an instance joins, just before it asks: wait for all three requests to be made.
        #expect(await eventually {
            cluster.cluster.madeRequests(table: "live") >= 3
                && cluster.cluster.unansweredRequests(table: "live") == 0
                && feeds.allSatisfy { $0.state.withLock { $0.machine.isIdle } }
        }, "the three requests were answered")
        let rejoined = cluster.fetchCount
        #expect((8...10).contains(rejoined), "one refresher answered the requests: \(rejoined)")
        #expect(cluster.holders.count == 1)
        cluster.rename(1, "Back up")
        await cluster.tickAll()
        #expect(cluster.fetchCount == rejoined + 1, "one refresher again")
        #expect(await cluster.viewersGot(2))
        for instance in 0..<3 {
            for viewer in cluster.messages(instance) {
                #expect(String(decoding: viewer[1], as: UTF8.self).contains("Back up"))
                #expect(!String(decoding: viewer[1], as: UTF8.self).contains("While down"), "not sent twice")
            }
        }
    }

    @Test("the store restarts empty: a new epoch, every instance follows it without resending")
    func storeRestartsWithNewEpoch() async throws {
        let cluster = try await Cluster.settled()
        defer { cluster.stop() }
        let epoch = try #require(cluster.feeds[0].state.withLock { $0.cluster.position?.epoch })
        cluster.cluster.restart(table: "live")
        cluster.rename(0, "After the restart")
        // Each instance notices the lost connection (its next read fails), leaves, and after a pause joins the
        // empty store again (logged once each). Ticking before then would race that: a tick could take the lease and
        // its run find the channel left, so the holder refreshes alone and the others follow a holder that publishes
        // nothing until its next tick. `isSharing` alone is no sign: it is still true before anyone noticed.
        let feeds = cluster.feeds
        #expect(await eventually { cluster.logger.count(containing: "shared again") == 3 && feeds.allSatisfy(\.isSharing) })
        await cluster.tickAll()
        #expect(cluster.fetchCount == 2, "one refresher for the cluster")
        #expect(await eventually {
            feeds.allSatisfy { feed in feed.state.withLock { $0.cluster.position.map { $0.epoch != epoch } ?? false } }
        }, "every instance follows the new epoch")
        let got = await cluster.viewersGot(1)
        #expect(got, "\((0..<3).map { cluster.messages($0).map(\.count) }) sharing \(feeds.map(\.isSharing)) holders \(cluster.holders) fetches \(cluster.fetchCount)")
    }

    @Test("an instance whose log reads failed for a while gets the head published meanwhile when it reads again")
    func rejoinAppliesMissedHead() async throws {
        let cluster = try await Cluster.settled()
        defer { cluster.stop() }
        let lost = try #require(cluster.feeds.indices.first { !cluster.feeds[$0].holdsLease })
        cluster.handles[lost].disconnected.store(true, ordering: .relaxed)
        let feed = cluster.feeds[lost]
        #expect(await eventually { !feed.isSharing })
        cluster.rename(0, "While it could not read")
        let others = cluster.feeds.indices.filter { $0 != lost }
        await cluster.tickAll(others.map { cluster.feeds[$0] })
        #expect(await cluster.viewersGot(1, on: others))
        cluster.handles[lost].disconnected.store(false, ordering: .relaxed)
        #expect(await cluster.waitForHead(2))
        #expect(await cluster.viewersGot(1))
        #expect(cluster.fetchCount == 2)
    }

    @Test("a POST-only table after a store restart: an instance takes the lease for a rejoin request, all converge")
    func postOnlyConvergesAfterRestart() async throws {
        let cluster = try await Cluster.settled()
        defer { cluster.stop() }
        let feeds = cluster.feeds
        // The store restarts empty (no persistence): lease, head and log are gone; every instance rejoins, and
        // as nobody posts (no interval: no tick either), nobody holds the lease.
        cluster.cluster.restart(table: "live")
        #expect(await eventually { cluster.logger.count(containing: "shared again") == 3 && feeds.allSatisfy(\.isSharing) })
        #expect(cluster.holders.isEmpty)
        // Then it is down a while, and a POST on instance 0 refreshes alone: the others' viewers do not see it.
        cluster.cluster.setAvailable(false, table: "live")
        #expect(await eventually { feeds.allSatisfy { !$0.isSharing } })
        cluster.rename(0, "Posted while down")
        let summary = try #require(await feeds[0].refresh().summary)
        #expect(summary.updated == 1 && summary.error == nil)
        #expect(await cluster.viewersGot(1, on: [0]))
        #expect(await cluster.viewersGot(0, on: [1, 2]))
        cluster.cluster.setAvailable(true, table: "live")
        #expect(await eventually { cluster.logger.count(containing: "shared again") == 6 && feeds.allSatisfy(\.isSharing) })
        // Instance 0 asks for a refresh as it joins; one instance takes the lease for it and publishes the head.
        #expect(await cluster.viewersGot(1), "every viewer of every instance has the change, once")
        #expect(await eventually { cluster.cluster.unansweredRequests(table: "live") == 0 })
        #expect(cluster.holders.count == 1)
        #expect(cluster.fetchCount == 3, "the first head, the POST alone, one refresh for the rejoin request")
        let expected = try #require(cluster.messages(0).first?.last)
        #expect(String(decoding: expected, as: UTF8.self).contains("Posted while down"))
        for instance in 0..<3 {
            for viewer in cluster.messages(instance) {
                #expect(viewer == [expected], "the same bytes on every instance, sent once")
            }
        }
    }

    @Test("a POSTed refresh on an instance without the lease is done by the holder and answered with its changes")
    func forwardedRefresh() async throws {
        let cluster = try await Cluster.settled()
        defer { cluster.stop() }
        let follower = try #require(cluster.feeds.first { !$0.holdsLease })
        cluster.rename(3, "Asked for")
        let summary = try #require(await follower.refresh().summary)
        #expect(summary.updated == 1 && summary.error == nil)
        #expect(cluster.fetchCount == 2, "only the holder fetched")
        #expect(await cluster.waitForHead(2))
        #expect(await cluster.viewersGot(1))
    }

    @Test("a forwarded POST that the holder does not answer within the channel's forward timeout gets an error, not a hang")
    func forwardedRefreshTimesOut() async throws {
        let cluster = try await Cluster.settled(forwardTimeout: .milliseconds(300))
        defer { cluster.stop() }
        let holder = try #require(cluster.feeds.firstIndex { $0.holdsLease })
        let follower = try #require(cluster.feeds.first { !$0.holdsLease })
        cluster.handles[holder].paused.store(true, ordering: .relaxed)   // the holder never sees the request
        // The answer comes after the channel's 300 ms, not a fixed 15 s (bounded well above the one, below the other).
        let answered = await Self.answer(within: .seconds(10)) { await follower.refresh().summary }
        let summary = try #require(answered, "no answer within 10 s: the channel's forward timeout was not used")
        #expect(summary.error == "the refreshing instance did not answer in time")
        #expect(summary.viewers == 2)
        #expect(cluster.fetchCount == 1, "the follower did not fetch itself")
    }

    @Test("a request taken on by a holder whose lease then moved is asked for again, and the new holder answers it")
    func anOwedAnswerFollowsTheLease() async throws {
        let cluster = try await Cluster.settled()
        defer { cluster.stop() }
        let old = try #require(cluster.holders.first)
        let others = cluster.feeds.indices.filter { $0 != old }
        let (asker, taker) = (others[0], others[1])
        cluster.handles[old].paused.store(true, ordering: .relaxed)   // the holder reads the request late
        cluster.rename(4, "Asked for")
        let tries = (asker: cluster.handles[asker].leaseTries.load(ordering: .relaxed),
                     taker: cluster.handles[taker].leaseTries.load(ordering: .relaxed))
        let answer = Task { await cluster.feeds[asker].refresh().summary }
        // The others got the request and, the lease being held, could not take it for the request (the asker also
        // tried once as it forwarded).
        #expect(await eventually {
            cluster.handles[asker].leaseTries.load(ordering: .relaxed) == tries.asker + 2
                && cluster.handles[taker].leaseTries.load(ordering: .relaxed) == tries.taker + 1
        })
        cluster.cluster.advance(by: cluster.feeds[old].leaseDuration, table: "live")   // the holder's lease lapses
        await cluster.feeds[taker].tick()
        #expect(cluster.feeds[taker].holdsLease, "the taker took the lapsed lease at its tick")
        // The old holder now reads the request, still believing it holds the lease: it takes it on, finds the lease
        // gone and asks for it again; the taker answers it.
        cluster.handles[old].paused.store(false, ordering: .relaxed)
        cluster.cluster.store("live").wakeReaders()
        let summary = try #require(await answer.value)
        #expect(summary.error == nil, "answered by the new holder, not by the forward timeout")
        #expect(!cluster.feeds[old].holdsLease)
    }

    /// Where the asker's log reads come back, against the holder's answer to its forwarded POST.
    enum LostReadOrder: CaseIterable, Sendable {
        /// The holder answers while the asker cannot read: the answering head is among the entries its rejoin skips.
        case answeredWhileLost
        /// The asker rejoins first (asking again), then the holder reads the request twice and answers.
        case rejoinedBeforeTheAnswer
    }

    @Test("a forwarded POST whose asker lost its log reads around the answer is still answered, once, in either order",
          arguments: LostReadOrder.allCases)
    func forwardedRefreshSurvivesALostRead(_ order: LostReadOrder) async throws {
        // The forward timeout is far beyond the test's bound: only an answer can end the wait in time.
        let cluster = try await Cluster.settled(forwardTimeout: .seconds(3_600))
        defer { cluster.stop() }
        let holder = try #require(cluster.feeds.firstIndex { $0.holdsLease })
        let asker = try #require(cluster.feeds.indices.first { $0 != holder })
        let feed = cluster.feeds[asker]
        cluster.handles[holder].paused.store(true, ordering: .relaxed)   // the holder reads the request when told
        cluster.rename(3, "Asked for")
        let answer = Task { await Self.answer(within: .seconds(10)) { await feed.refresh().summary } }
        #expect(await eventually { cluster.cluster.unansweredRequests(table: "live") == 1 })
        cluster.handles[asker].disconnected.store(true, ordering: .relaxed)
        #expect(await eventually { !feed.isSharing })
        func holderAnswers() {
            cluster.handles[holder].paused.store(false, ordering: .relaxed)
            cluster.cluster.store("live").wakeReaders()
        }
        switch order {
        case .answeredWhileLost:
            holderAnswers()
            #expect(await cluster.waitForHead(2, on: cluster.feeds.indices.filter { $0 != asker }.map { cluster.feeds[$0] }))
            cluster.handles[asker].disconnected.store(false, ordering: .relaxed)
        case .rejoinedBeforeTheAnswer:
            cluster.handles[asker].disconnected.store(false, ordering: .relaxed)
            #expect(await eventually { feed.isSharing && cluster.cluster.madeRequests(table: "live") == 1 })
            #expect(await eventually {
                cluster.cluster.store("live").entries(after: nil).count { if case .refreshRequest = $0 { true } else { false } } == 2
            }, "asked again under the same id as it rejoined")
            holderAnswers()
        }
        let summary = try #require(await answer.value, "the POST was not answered: its answer was skipped")
        #expect(summary.error == nil)
        #expect(await cluster.viewersGot(1), "every viewer got the change once")
        #expect(await eventually { cluster.cluster.unansweredRequests(table: "live") == 0 })
    }

    @Test("a forwarded POST whose holder's publication failed is answered by its next one, with no tick")
    func forwardedRefreshSurvivesAFailedPublish() async throws {
        let cluster = try await Cluster.settled(forwardTimeout: .seconds(3_600))
        defer { cluster.stop() }
        let holder = try #require(cluster.feeds.firstIndex { $0.holdsLease })
        let asker = try #require(cluster.feeds.indices.first { $0 != holder })
        let feed = cluster.feeds[asker]
        cluster.handles[holder].failingPublishes.store(1, ordering: .relaxed)
        cluster.rename(2, "Asked for")
        // The holder takes the request on, fetches, fails to publish, and asks for the request again: its next
        // refresh publishes the change and answers (no tick in this test, and no other POST).
        let summary = try #require(await Self.answer(within: .seconds(10)) { await feed.refresh().summary },
                                   "the POST was not answered: its answer was dropped with the failed publication")
        #expect(summary.error == nil)
        #expect(cluster.handles[holder].failingPublishes.load(ordering: .relaxed) == 0, "the publication did fail")
        #expect(await cluster.viewersGot(1), "every viewer got the change once (the holder's own, sent alone, too)")
        #expect(await eventually { cluster.cluster.unansweredRequests(table: "live") == 0 })
    }

    /// What `work` returns, or nil past `bound` (scaled): a hang is a test failure, not a stuck run.
    static func answer(within bound: Duration, _ work: @escaping @Sendable () async -> LiveSummary?) async -> LiveSummary? {
        await withTaskGroup(of: LiveSummary?.self) { group in
            group.addTask { await work() }
            group.addTask { try? await Task.sleep(for: bound * TestTime.scale); return nil }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
