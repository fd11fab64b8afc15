import JSON
import Sealing
import Testing
@testable import Upstream

/// Issue 26, item 3: whoever can write to the shared store (Redis) cannot cross identities nor choose a cursor: a
/// value moved from another identity's key, or written without the operator's sealing key, is a miss (counted:
/// ``SharedPages/Event/unverified``), fetched from the upstream with the viewer's own request and overwritten.
@Suite struct SharedPageHostileStoreTests {
    typealias Cluster = SharedPageCacheTests

    /// A page as an instance with the cluster's key would have stored it for `keys` at `cursor`'s key.
    static func honest(_ items: [JSONValue], next: String?, keys: SharedPageKeys) -> [UInt8] {
        let value = SharedPageCodec.encode(UpstreamPage<JSONValue>(items: items, nextCursor: next),
                                           fetchedAt: SharedPages.unixMilliseconds())
        return keys.sealed(value, at: keys.page(nil))
    }

    @Test func aValueCopiedFromAnotherIdentitysKeyIsAMiss() async throws {
        try await Cluster.withUpstream { server, store in
            let alice = try Cluster.instance(server, store, identity: Array("alice".utf8))
            let bob = try Cluster.instance(server, store, identity: Array("bob".utf8))
            let aliceKeys = alice.cache.shared!.keys, bobKeys = bob.cache.shared!.keys
            // Alice's page, as the instance that fetched it for her stored it.
            store.put(Self.honest([["id": 666, "owner": "alice"]], next: "alice-p2", keys: aliceKeys), at: aliceKeys.page(nil))
            #expect(try await alice.source.fetchPage(cursor: nil).items == [["id": 666, "owner": "alice"]], "hers, shared")

            // A Redis writer copies it onto Bob's key: Bob's instance reads it as a miss and fetches his own.
            store.put(try #require(store.bytes(at: aliceKeys.page(nil))), at: bobKeys.page(nil))
            let page = try await bob.source.fetchPage(cursor: nil)
            #expect(page.items == [["id": 1]] && page.nextCursor == "p1", "Bob's page from the upstream, not Alice's")
            #expect(server.requests.count == 1)
            #expect(bob.events.all == [.unverified, .miss, .unverified], "looked again once it held the lease")
            #expect(bobKeys.opened(store.bytes(at: bobKeys.page(nil)) ?? [], at: bobKeys.page(nil)) != nil, "overwritten")
        }
    }

    @Test(arguments: [false, true])
    func aForgedNextCursorNeverGoesUpstream(sealedWithAnotherKey: Bool) async throws {
        try await Cluster.withUpstream { server, store in
            let a = try Cluster.instance(server, store)
            let keys = a.cache.shared!.keys
            let attacker = SharedPageKeys(table: "t", scope: a.source.sharedScope(),
                                          storeKey: .random())
            let forged = SharedPageCodec.encode(UpstreamPage<JSONValue>(items: [["id": 9]], nextCursor: "forged"),
                                                fetchedAt: SharedPages.unixMilliseconds())
            store.put(sealedWithAnotherKey ? attacker.sealed(forged, at: keys.page(nil)) : forged, at: keys.page(nil))

            let first = try await a.source.fetchPage(cursor: nil)
            #expect(first.items == [["id": 1]] && first.nextCursor == "p1")
            _ = try await a.source.fetchPage(cursor: first.nextCursor)
            #expect(server.requests.map { $0.query["cursor"] } == [nil, "p1"], "the forged cursor was never requested")
            #expect(a.events.count(.unverified) == 2)
        }
    }
}
