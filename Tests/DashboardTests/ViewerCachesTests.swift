@testable import Dashboard
import RowstreamKit
import Testing
import JSON
import Upstream

/// A forwarding table's sources per viewer (``QueryCaches``): their requests, shared-store keys and the bound.
@Suite struct ViewerCachesTests {
    static func caches(_ body: (QueryCaches) throws -> Void) throws {
        let client = try UpstreamClient()
        defer { client.shutdown() }
        let source = PageSource(client: client, template: PageRequestTemplate(url: "http://127.0.0.1:9/v1/rows"),
                                itemsPath: try JSONPath("results"), style: .offset(parameter: "offset", end: .shortPage),
                                cache: PageCache(ttl: .seconds(60), prefetch: false))
        try body(QueryCaches(source: source, forward: ViewerForwarding(headers: [("X-User", "u:${viewer.user}")],
                                                                         query: [("who", "${viewer.user}")])))
    }

    @Test func eachViewerHasSharedStoreKeysOfTheirOwnThatNeverHoldTheirName() throws {
        try Self.caches { caches in
            let alice = caches.source(for: [], viewer: Viewer(name: "alice"))
            let bob = caches.source(for: [], viewer: Viewer(name: "bob"))
            #expect(alice.template.headers.map { "\($0.name)=\($0.value)" } == ["X-User=u:alice"])
            #expect(alice.template.query.map { "\($0.name)=\($0.value)" } == ["who=alice"])
            let keys = [alice, bob].map { SharedPageKeys(table: "mine", scope: $0.sharedScope()) }
            #expect(keys[0].page(nil) != keys[1].page(nil) && keys[0].page("5") != keys[1].page("5"))
            #expect(keys.allSatisfy { !$0.page(nil).contains("alice") && !$0.page(nil).contains("bob") })
            #expect(alice.cache !== bob.cache && alice.cache != nil)
            #expect(caches.source(for: [], viewer: Viewer(name: "alice")).cache === alice.cache, "one cache per viewer")
        }
    }

    @Test func atMost256SourcesTheLeastRecentlyUsedGoesFirst() throws {
        try Self.caches { caches in
            let first = caches.source(for: [], viewer: Viewer(name: "v0")).cache
            let kept = caches.source(for: [], viewer: Viewer(name: "v1")).cache
            for index in 2..<256 { _ = caches.source(for: [], viewer: Viewer(name: "v\(index)")) }
            #expect(caches.source(for: [], viewer: Viewer(name: "v1")).cache === kept)  // used again: now recent
            _ = caches.source(for: [], viewer: Viewer(name: "v256"))  // one too many: v0 goes
            #expect(caches.source(for: [], viewer: Viewer(name: "v1")).cache === kept)
            #expect(caches.source(for: [], viewer: Viewer(name: "v0")).cache !== first)
        }
    }
}
