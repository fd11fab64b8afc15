import JSON
import Locking
import Sealing
import Testing
@testable import Upstream

/// Two `PageCache<JSONValue>`s over one shared store stand for two server instances: one upstream fetch per page for both,
/// a lease loser served by the landing, a dead lease holder outlived, and a store that is down or failing never
/// turning into an error.
@Suite struct SharedPageCacheTests {
    /// One instance: its cache over its view of `store`, and the events its shared level reported.
    struct Instance {
        let source: PageSource<JSONValue>
        let cache: PageCache<JSONValue>
        let events: EventLog
    }

    /// The cluster's key file's store key (every instance shares it).
    static let clusterKey = StoreKey.random()

    /// `identity`: what else its requests carry (another viewer's forwarded credential: keys of its own).
    static func instance(_ server: InProcessUpstream, _ store: MemoryPageStore,
                         ttl: Duration = .seconds(60), leaseTime: Duration = .seconds(30),
                         identity: [UInt8] = []) throws -> Instance {
        let plain = try PageCacheTests.source(server, cache: PageCache<JSONValue>(ttl: ttl, prefetch: false))
        let events = EventLog()
        let keys = SharedPageKeys(table: "t", scope: plain.sharedScope() + identity, storeKey: clusterKey)
        var shared = SharedPages(store: store.view(), keys: keys, observer: { events.record($0) })
        shared.leaseTime = leaseTime
        let cache = PageCache<JSONValue>(ttl: ttl, prefetch: false, shared: shared)
        return Instance(source: try PageCacheTests.source(server, cache: cache), cache: cache, events: events)
    }

    /// Runs `body` with the in-process upstream (its replies held at `gate`, if given) and a shared store, and stops
    /// the upstream after.
    static func withUpstream(held gate: ReplyGate? = nil,
                             _ body: (InProcessUpstream, MemoryPageStore) async throws -> Void) async throws {
        let server = InProcessUpstream { request in
            gate.map { .held($0, PageCacheTests.api(request)) } ?? PageCacheTests.api(request)
        }
        defer { server.stop() }
        try await body(server, MemoryPageStore())
    }

    @Test func twoInstancesFetchEachPageOnce() async throws {
        let gate = ReplyGate()
        try await Self.withUpstream(held: gate) { server, store in
            let a = try Self.instance(server, store), b = try Self.instance(server, store)

            // Eight viewers on each instance ask for the first page at once; the one fetch is held until one instance
            // holds the lease (its request is at the upstream) and the other waits for its landing.
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for instance in [a, b] {
                    for _ in 0..<8 { group.addTask { try await instance.source.fetchPage(cursor: nil).items.count } }
                }
                #expect(await eventually { gate.waiting == 1 && store.waiting == 1 })
                gate.releaseAll()
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(counts == Array(repeating: 1, count: 16))

            // The next page, first on one instance, then on the other: from the store.
            _ = try await a.source.fetchPage(cursor: "p1")
            _ = try await b.source.fetchPage(cursor: "p1")

            #expect(server.requests.map { $0.query["cursor"] } == [nil, "p1"])
            #expect(a.events.count(.leaseWait) + b.events.count(.leaseWait) == 1)
            #expect(b.events.count(.hit) == 1)
            #expect(a.events.count(.fallback) + b.events.count(.fallback) == 0)
        }
    }

    @Test func aPageFromTheStoreKeepsItsTotal() async throws {
        let server = InProcessUpstream { _ in .json(#"{"data": [{"id": 1}], "next": null, "count": 2500}"#) }
        defer { server.stop() }
        let store = MemoryPageStore()
        var checks = PageChecks()
        checks.totalPath = try JSONPath("count")
        let sources = try (0..<2).map { _ in
            let keys = SharedPageKeys(table: "t", scope: [], storeKey: Self.clusterKey)
            let cache = PageCache<JSONValue>(ttl: .seconds(60), prefetch: false,
                                             shared: SharedPages(store: store.view(), keys: keys, observer: { _ in }))
            return PageSource<JSONValue>(client: server, template: PageRequestTemplate(url: server.baseURL + "/i"),
                                         itemsPath: try JSONPath("data"),
                                         style: .cursor(parameter: "cursor", nextCursorPath: try JSONPath("next")),
                                         checks: checks).caching(in: cache)
        }
        #expect(try await sources[0].fetchPage(cursor: nil).total == 2500)
        let shared = try await sources[1].fetchPage(cursor: nil)
        #expect(server.requests.count == 1, "the second instance read the page from the store")
        #expect(shared.total == 2500, "with the total its upstream reported")
    }

    @Test func theLeaseLoserGetsThePageWhenItLands() async throws {
        let gate = ReplyGate()
        try await Self.withUpstream(held: gate) { server, store in
            let holder = try Self.instance(server, store), loser = try Self.instance(server, store)

            let first = Task { try await holder.source.fetchPage(cursor: nil) }
            #expect(await eventually { gate.waiting == 1 }, "the holder's fetch is at the upstream")
            let second = Task { try await loser.source.fetchPage(cursor: nil) }
            #expect(await eventually { store.waiting == 1 }, "the loser waits for the landing")
            gate.releaseAll()

            #expect(try await second.value.items == [["id": 1]])
            #expect(try await first.value.nextCursor == "p1")
            #expect(server.requests.count == 1)
            #expect(loser.events.all == [.miss, .leaseWait])
            #expect(store.announcements == 1)
        }
    }

    @Test func aDeadLeaseHolderHoldsUpNobodyPastItsLease() async throws {
        try await Self.withUpstream { server, store in
            let survivor = try Self.instance(server, store, leaseTime: .seconds(1))
            // An instance took the lease and died: it never fetches, stores or announces. Its lease lapses when the
            // test moves the lease clock past it (not by a clock this busy machine may be slow to read), after the
            // survivor met it.
            let dead = store.view()
            let lease = survivor.cache.shared!.keys.lease(nil)
            #expect(try await dead.takeLease(lease, token: "dead", lifetime: .seconds(3)))

            let fetching = Task { try await survivor.source.fetchPage(cursor: nil) }
            #expect(await eventually { survivor.events.count(.leaseWait) == 1 }, "the survivor waits on the dead lease")
            #expect(server.requests.isEmpty, "nobody fetches while the lease stands")
            store.advanceLeaseClock(by: .seconds(3))
            let page = try await fetching.value

            #expect(page.nextCursor == "p1")
            #expect(server.requests.count == 1, "the survivor fetched once the lease had lapsed")
            #expect(survivor.events.count(.leaseWait) == 1)
            #expect(store.leasesTaken == 2, "the survivor took the lapsed lease")
        }
    }

    @Test(arguments: [false, true]) func aStoreDownOrFailingIsLocalCachingWithoutError(failing: Bool) async throws {
        try await Self.withUpstream { server, store in
            if failing { store.setFailing(true) } else { store.setAvailable(false) }
            let a = try Self.instance(server, store), b = try Self.instance(server, store)

            for instance in [a, b] {
                for _ in 0..<3 { #expect(try await instance.source.fetchPage(cursor: nil).items == [["id": 1]]) }
            }

            #expect(server.requests.count == 2, "each instance fetched once and kept the page in its own memory")
            #expect(a.events.all == [.fallback] && b.events.all == [.fallback])

            // The store comes back: the next page is shared again.
            if failing { store.setFailing(false) } else { store.setAvailable(true) }
            _ = try await a.source.fetchPage(cursor: "p1")
            _ = try await b.source.fetchPage(cursor: "p1")
            #expect(server.requests.count == 3)
        }
    }

    @Test func aCorruptValueIsAMissAndIsReplaced() async throws {
        try await Self.withUpstream { server, store in
            let a = try Self.instance(server, store)
            let keys = a.cache.shared!.keys, key = keys.page(nil)
            store.put(keys.sealed([0x01, 0xFF, 0x00, 0x7B], at: key), at: key)

            #expect(try await a.source.fetchPage(cursor: nil).items == [["id": 1]])

            #expect(server.requests.count == 1)
            #expect(a.events.all == [.rejected, .miss, .rejected], "looked again once it held the lease")
            let stored = try #require(keys.opened(store.bytes(at: key) ?? [], at: key))
            #expect(SharedPageCodec.decode(stored, maxBytes: 1 << 20, reader: .json)?.page.nextCursor == "p1")
        }
    }

    @Test func aHolderWhoseFetchOutlastsTheLeaseRenewsItAndFetchesAlone() async throws {
        let gate = ReplyGate()
        try await Self.withUpstream(held: gate) { server, store in
            let holder = try Self.instance(server, store, leaseTime: .seconds(3))
            let waiter = try Self.instance(server, store, leaseTime: .seconds(3))

            let first = Task { try await holder.source.fetchPage(cursor: nil) }
            #expect(await eventually { gate.waiting == 1 })
            let second = Task { try await waiter.source.fetchPage(cursor: nil) }
            // The lease's clock moves on two thirds of its lifetime, then waits for a renewal, three times: twice its
            // lifetime has passed since the holder took it, and it holds it still (a lease not renewed would lapse).
            for _ in 1...3 {
                let renewed = store.advanceLeaseClock(by: .seconds(2))
                #expect(await eventually { store.renewals > renewed })
            }
            #expect(store.isLeased(holder.cache.shared!.keys.lease(nil)))
            // Nobody else took it meanwhile. Once the holder releases it, the waiter may: its wait is real time, and
            // a wait that ends between its look and the holder's release takes the free lease, finds the page and
            // lets go (once in a ThreadSanitizer run at da989cd: a lease count of 2 taken after the release).
            #expect(store.leasesTaken == 1)
            gate.releaseAll()

            #expect(try await second.value.nextCursor == "p1")
            #expect(try await first.value.nextCursor == "p1")
            #expect(server.requests.count == 1, "fetched once, by the holder")
        }
    }

    @Test func aLeaseTakenByACommandThatTimedOutIsReleased() async throws {
        try await Self.withUpstream { server, store in
            let a = try Self.instance(server, store, leaseTime: .seconds(120))   // outlasts the wait below
            store.timeOutNextLease()

            #expect(try await a.source.fetchPage(cursor: nil).items == [["id": 1]], "fetched without the store")

            #expect(a.events.all == [.miss, .fallback])
            #expect(await eventually { !store.isLeased(a.cache.shared!.keys.lease(nil)) }, "not left to lapse")
        }
    }

    @Test func aPageThatLandsBeforeTheLeaseIsTakenIsNotFetchedAgain() async throws {
        try await Self.withUpstream { server, store in
            let late = try Self.instance(server, store)
            // Another instance stores the page and releases its lease between this one's look and its lease.
            let keys = late.cache.shared!.keys, key = keys.page(nil)
            store.beforeNextLease {
                store.put(keys.sealed(SharedPageCodec.encode(UpstreamPage<JSONValue>(items: [["id": 5]], nextCursor: nil),
                                                             fetchedAt: SharedPages.unixMilliseconds()), at: key), at: key)
            }

            #expect(try await late.source.fetchPage(cursor: nil).items == [["id": 5]])
            #expect(server.requests.isEmpty)
        }
    }

    @Test func aSharedPageKeepsItsAgeInLocalMemory() async throws {
        try await Self.withUpstream { server, store in
            let b = try Self.instance(server, store, ttl: .seconds(60))
            // A page another instance stored an hour ago (a store whose TTL outlived ours): served, but not kept.
            let keys = b.cache.shared!.keys, key = keys.page(nil)
            let old = SharedPageCodec.encode(UpstreamPage<JSONValue>(items: [["id": 7]], nextCursor: nil),
                                             fetchedAt: SharedPages.unixMilliseconds() - 3_600_000)
            store.put(keys.sealed(old, at: key), at: key)

            #expect(try await b.source.fetchPage(cursor: nil).items == [["id": 7]])
            store.put(keys.sealed(SharedPageCodec.encode(UpstreamPage<JSONValue>(items: [["id": 8]], nextCursor: nil),
                                                         fetchedAt: SharedPages.unixMilliseconds()), at: key), at: key)
            #expect(try await b.source.fetchPage(cursor: nil).items == [["id": 8]], "the stale page was not kept locally")
            #expect(server.requests.isEmpty)
        }
    }
}

/// The shared level's events, in order. Thread-safe (one `Lock`).
final class EventLog: Sendable {
    private let events = Lock<[SharedPages.Event]>([])

    func record(_ event: SharedPages.Event) { events.withLock { $0.append(event) } }
    var all: [SharedPages.Event] { events.withLock { $0 } }
    func count(_ event: SharedPages.Event) -> Int { all.filter { $0 == event }.count }
}
