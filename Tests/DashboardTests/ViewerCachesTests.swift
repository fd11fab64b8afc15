@testable import Dashboard
import RowstreamKit
import Testing
import JSON
import Upstream

/// A forwarding table's sources per viewer (``QueryCaches``): their requests, shared-store keys and the bound.
@Suite struct ViewerCachesTests {
    static let keys = SealingKeys.random()

    /// What viewer `name` forwards to a table forwarding `forward`.
    static func forwarded(_ name: String, _ forward: ViewerForwarding) throws -> ViewerForwarding.Forwarded {
        try forward.resolve(Viewer(name: name), keys: keys).get()
    }

    static func caches(_ body: (QueryCaches<JSONValue>, ViewerForwarding) throws -> Void) throws {
        let client = try UpstreamClient()
        defer { client.shutdown() }
        let source = PageSource<JSONValue>(client: client, template: PageRequestTemplate(url: "http://127.0.0.1:9/v1/rows"),
                                itemsPath: try JSONPath("results"), style: .offset(parameter: "offset", end: .shortPage),
                                cache: PageCache<JSONValue>(ttl: .seconds(60), prefetch: false))
        let forward = try ViewerForwarding(headers: [("X-User", "u:${viewer.user}")], query: [("who", "${viewer.user}")])
        try body(QueryCaches(source: source, forward: forward), forward)
    }

    @Test func eachViewerHasSharedStoreKeysOfTheirOwnThatNeverHoldTheirName() throws {
        try Self.caches { caches, forward in
            let alice = caches.source(for: [], as: try Self.forwarded("alice", forward))
            let bob = caches.source(for: [], as: try Self.forwarded("bob", forward))
            #expect(alice.template.headers.map { "\($0.name)=\($0.value)" } == ["X-User=u:alice"])
            #expect(alice.template.query.map { "\($0.name)=\($0.value)" } == ["who=alice"])
            let keys = [alice, bob].map { SharedPageKeys(table: "mine", scope: $0.sharedScope(), storeKey: Self.keys.storeKey) }
            #expect(keys[0].page(nil) != keys[1].page(nil) && keys[0].page("5") != keys[1].page("5"))
            #expect(keys.allSatisfy { !$0.page(nil).contains("alice") && !$0.page(nil).contains("bob") })
            #expect(alice.cache !== bob.cache && alice.cache != nil)
            #expect(caches.source(for: [], as: try Self.forwarded("alice", forward)).cache === alice.cache, "one cache per viewer")
        }
    }

    @Test func atMost256SourcesTheLeastRecentlyUsedGoesFirst() throws {
        try Self.caches { caches, forward in
            let first = caches.source(for: [], as: try Self.forwarded("v0", forward)).cache
            let kept = caches.source(for: [], as: try Self.forwarded("v1", forward)).cache
            for index in 2..<256 { _ = caches.source(for: [], as: try Self.forwarded("v\(index)", forward)) }
            #expect(caches.source(for: [], as: try Self.forwarded("v1", forward)).cache === kept)  // used again: now recent
            _ = caches.source(for: [], as: try Self.forwarded("v256", forward))  // one too many: v0 goes
            #expect(caches.source(for: [], as: try Self.forwarded("v1", forward)).cache === kept)
            #expect(caches.source(for: [], as: try Self.forwarded("v0", forward)).cache !== first)
        }
    }
}
