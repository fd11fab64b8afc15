import JSON
import TestSupport
import Testing
@testable import Upstream

/// The ordering rule of shared page writes (``SharedPageOrder``): a fetch that started before a live refresh but
/// lands after it does not put its older page over the refresh's in the shared store, so other instances do not
/// serve the older head; and the rule itself (what is older, what a store may ignore).
@Suite struct SharedPageOrderTests {
    static func stored(_ value: UInt64, _ keys: SharedPageKeys) -> [UInt8] {
        keys.sealed(SharedPageCodec.encode(UpstreamPage<JSONValue>(items: [["v": 1]], nextCursor: nil), fetchedAt: value),
                    at: keys.page(nil))
    }

    @Test func aFetchOvertakenByARefreshOnAnotherInstanceDoesNotOverwriteItsSharedPage() async throws {
        let gate = ReplyGate()
        // The head is {"v":N}, N the request's number; the first request (A's fetch) is held at `gate`.
        let server = InProcessUpstream { request in
            let reply = FixtureReply.json("{\"data\":[{\"v\":\(request.number)}],\"next\":null}")
            return request.number == 1 ? .held(gate, reply) : reply
        }
        defer { server.stop() }
        let store = MemoryPageStore()
        let a = try SharedPageCacheTests.instance(server, store), b = try SharedPageCacheTests.instance(server, store)
        let keys = a.cache.shared!.keys

        let early = Task { try await PageCacheRefreshTests.version(a.source.fetchPage(cursor: nil)) }
        #expect(await eventually { gate.waiting == 1 }, "A's fetch is held")
        // B's refresh starts a millisecond later (the order's unit) and is done before A's fetch lands.
        let heldSince = SharedPages.unixMilliseconds()
        #expect(await eventually { SharedPages.unixMilliseconds() > heldSince })
        #expect(try await PageCacheRefreshTests.version(b.source.refreshing().fetchPage(cursor: nil)) == 2)
        gate.releaseAll()
        #expect(try await early.value == 1)

        // The store keeps the refresh's page; a third instance reads it (no request of its own).
        let bytes = try #require(store.bytes(at: keys.page(nil)))
        let value = try #require(keys.opened(bytes, at: keys.page(nil)))
        #expect(PageCacheRefreshTests.version(try #require(SharedPageCodec.decode(value, maxBytes: 1 << 20, reader: .json)).page) == 2)
        let c = try SharedPageCacheTests.instance(server, store)
        #expect(try await PageCacheRefreshTests.version(c.source.fetchPage(cursor: nil)) == 2)
        #expect(server.requests.count == 2)
    }

    @Test func theRuleComparesFetchStartsAndIgnoresWhatItCannotTrust() {
        let keys = SharedPageKeys(table: "t", scope: [], storeKey: SharedPageCacheTests.clusterKey)
        let now: UInt64 = 1_800_000_000_000
        #expect(SharedPageOrder.order(of: Self.stored(now, keys)) == now)
        #expect(SharedPageOrder.replaces(nil, with: Self.stored(now, keys), now: now))
        #expect(SharedPageOrder.replaces(Self.stored(now - 1, keys), with: Self.stored(now, keys), now: now))
        #expect(SharedPageOrder.replaces(Self.stored(now, keys), with: Self.stored(now, keys), now: now), "a tie: the later write")
        #expect(!SharedPageOrder.replaces(Self.stored(now, keys), with: Self.stored(now - 1, keys), now: now))
        // Another layout (a value of an older format, garbage, cut short) never holds a write back.
        #expect(SharedPageOrder.order(of: [0x01, 2, 3]) == nil)
        #expect(SharedPageOrder.replaces(Array("[1,2,3]".utf8), with: Self.stored(1, keys), now: now))
        // Nor a value dated more than a minute ahead of the store's clock (forged, or a clock far off).
        #expect(!SharedPageOrder.replaces(Self.stored(now + SharedPageOrder.maxLead, keys), with: Self.stored(now, keys), now: now))
        #expect(SharedPageOrder.replaces(Self.stored(now + SharedPageOrder.maxLead + 1, keys), with: Self.stored(now, keys), now: now))
    }
}
