import JSON
import TestSupport
import Testing
@testable import Upstream

/// A live refresh's page goes into the cache (``PageSource/refreshing()``, ``PageCache/replace(_:load:)``): viewers
/// who come after the refresh read what it read, within the TTL, and a fetch the refresh overtook does not put its
/// older page back when it lands.
@Suite struct PageCacheRefreshTests {
    /// The held upstream: its head is `{"data":[{"v":N}]}`, N the request's number, the first request's reply held
    /// at `gate`; a source over it with a cache that keeps pages 10 minutes (no prefetch). In-process, no socket.
    struct Held {
        let upstream: InProcessUpstream
        let cache = PageCache<JSONValue>(ttl: .seconds(600), prefetch: false)
        let source: PageSource<JSONValue>

        init(holdingFirstAt gate: ReplyGate) throws {
            upstream = InProcessUpstream { request in
                let reply = FixtureReply.json("{\"data\":[{\"v\":\(request.number)}],\"next\":null}")
                return request.number == 1 ? .held(gate, reply) : reply
            }
            source = try PageCacheTests.source(upstream, cache: cache)
        }
    }

    static func version(_ page: UpstreamPage<JSONValue>) -> Int64? { page.items.first?["v"]?.intValue }

    @Test func aRefreshReplacesTheCachedPageAndAnOvertakenFetchDoesNotPutItsPageBack() async throws {
        let gate = ReplyGate()
        let held = try Held(holdingFirstAt: gate), server = held.upstream, source = held.source
        defer { server.stop() }

        // A viewer's fetch of the head, held upstream (it asked before the change).
        let early = Task { try await Self.version(source.fetchPage(cursor: nil)) }
        #expect(await eventually { gate.waiting == 1 }, "the first fetch is held")

        // The refresh reads past the cache (it does not join the fetch in flight) and puts its page in.
        let refreshed = try await source.refreshing().fetchPage(cursor: nil)
        #expect(Self.version(refreshed) == 2)
        // Asked after the refresh returned, within the TTL: the refreshed page, from memory (not joined to the held
        // fetch: waited for boundedly, so that a failure here does not wait for the request's own timeout).
        let late = PageCacheTests.Answer()
        Task { late.set(try? await Self.version(source.fetchPage(cursor: nil)).map(Int.init)) }
        #expect(await eventually { late.value != nil }, "answered without the held fetch")
        #expect(late.value == 2)

        // The overtaken fetch lands: its own waiter gets its page, the cache keeps the refreshed one.
        gate.releaseAll()
        #expect(try await early.value == 1)
        #expect(Self.version(try await source.fetchPage(cursor: nil)) == 2)
        #expect(server.requests.count == 2)
    }

    @Test func aFailedRefreshLeavesTheCachedPage() async throws {
        let calls = Tally()
        let server = InProcessUpstream { _ in
            calls.next() == 2 ? .json("{}", status: 500) : .json("{\"data\":[{\"v\":1}],\"next\":null}")
        }
        defer { server.stop() }
        let source = try PageCacheTests.source(server, cache: PageCache<JSONValue>(ttl: .seconds(600), prefetch: false))

        #expect(Self.version(try await source.fetchPage(cursor: nil)) == 1)
        await #expect(throws: UpstreamError.httpStatus(500)) { try await source.refreshing().fetchPage(cursor: nil) }
        #expect(Self.version(try await source.fetchPage(cursor: nil)) == 1)
        #expect(server.requests.count == 2, "the cached page answered after the failed refresh")
    }
}

extension PageCacheRefreshTests {
    /// In a cluster the refresh's page goes into the shared store too, replacing the one there: an instance with
    /// nothing in memory gets it from the store, with no upstream request.
    @Test func aRefreshReplacesTheSharedStoresPage() async throws {
        let calls = Tally()
        let server = InProcessUpstream { _ in .json("{\"data\":[{\"v\":\(calls.next())}],\"next\":null}") }
        defer { server.stop() }
        let store = MemoryPageStore()
        let holder = try SharedPageCacheTests.instance(server, store)

        #expect(Self.version(try await holder.source.fetchPage(cursor: nil)) == 1)
        #expect(Self.version(try await holder.source.refreshing().fetchPage(cursor: nil)) == 2)
        let newcomer = try SharedPageCacheTests.instance(server, store)
        #expect(Self.version(try await newcomer.source.fetchPage(cursor: nil)) == 2)
        #expect(newcomer.events.count(.hit) == 1)
        #expect(server.requests.count == 2)
    }
}

extension PageCacheRefreshTests {
    /// An instance told of another's refresh drops its copy (``PageCache/drop(_:)``): the next request fetches, and a
    /// fetch that was in flight when it was dropped answers its own waiter but does not put its older page back.
    @Test func aDroppedPageIsFetchedAgainAndAFetchInFlightDoesNotPutItBack() async throws {
        let gate = ReplyGate()
        let held = try Held(holdingFirstAt: gate), server = held.upstream, cache = held.cache, source = held.source
        defer { server.stop() }

        let early = Task { try await Self.version(source.fetchPage(cursor: nil)) }
        #expect(await eventually { gate.waiting == 1 }, "the first fetch is held")
        cache.drop(nil)
        gate.releaseAll()
        #expect(try await early.value == 1)
        #expect(Self.version(try await source.fetchPage(cursor: nil)) == 2, "fetched again, not the dropped fetch's page")
        #expect(Self.version(try await source.fetchPage(cursor: nil)) == 2, "kept")
        cache.drop(nil)
        #expect(Self.version(try await source.fetchPage(cursor: nil)) == 3)
        #expect(server.requests.count == 3)
    }
}
