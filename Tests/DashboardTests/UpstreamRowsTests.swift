@testable import Dashboard
import RowstreamKit
import Tables
import Testing
import JSON
import Upstream

/// A config table's ``UpstreamRows`` (its ``RowSource``): the page source each walk reads is chosen from the
/// request it is given, explicitly: a forwarding table's walk reads the request's viewer's own source (their
/// forwarded values in its requests) in a detached task too, where no task-local is bound; a viewer who forwards
/// nothing is refused, closed, at every batch; a controls' choice reads its own cache. No request is sent.
@Suite struct UpstreamRowsTests {
    static func rows(_ client: UpstreamClient, forward: ViewerForwarding?) throws -> UpstreamRows {
        let spec = TableSpec(name: "mine", title: "Mine", columns: [], keyField: nil)
        let source = PageSource<Row>(client: client, template: PageRequestTemplate(url: "http://127.0.0.1:9/v1/rows"),
                                     itemsPath: try JSONPath("results"), style: .offset(parameter: "offset", end: .shortPage),
                                     reader: ItemReader.rows(spec), cache: PageCache<Row>(ttl: .seconds(60), prefetch: false))
        let hashKey = WalkHashKey.random()
        return UpstreamRows(table: "mine", keyField: nil, maxEmptyPages: 5, hashKey: hashKey,
                            pageHashes: PageKeyHashes(key: hashKey), source: source, refreshing: source.refreshing(),
                            caches: QueryCaches(source: source, forward: forward), secrets: [],
                            redactor: SecretRedactor(secrets: []), forward: forward, keys: .random())
    }

    @Test func aForwardingTablesWalkReadsTheRequestsViewersOwnSourceWithoutTaskLocals() async throws {
        let client = try UpstreamClient()
        defer { client.shutdown() }
        let forward = try ViewerForwarding(headers: [("X-User", "u:${viewer.user}")], query: [])
        let rows = try Self.rows(client, forward: forward)
        #expect(rows.readsViewerHeaders, "a viewer session keeps the headers its new choices forward")
        let walk = await Task.detached { rows.walk(for: RowRequest(viewer: Viewer(name: "alice"))) }.value
        let source = try walk.get().source
        #expect(source.template.headers.map { "\($0.name)=\($0.value)" } == ["X-User=u:alice"])
        #expect(source.cache != nil && source.cache !== rows.source.cache, "alice's own cache")

        let refused = rows.walk(for: RowRequest(viewer: .nobody))
        await #expect(throws: LoadFailure.self) { _ = try await rows.batch(at: nil, in: refused) }
    }

    @Test func aPlainTablesViewerWalksThroughTheCacheAndAChoiceThroughItsOwn() throws {
        let client = try UpstreamClient()
        defer { client.shutdown() }
        let rows = try Self.rows(client, forward: nil)
        #expect(!rows.readsViewerHeaders, "a viewer session need not keep the viewer's headers")
        let walk = try rows.walk(for: RowRequest(viewer: Viewer(name: "bob"))).get()
        #expect(walk.source.cache === rows.source.cache && walk.source.template.headers.isEmpty)
        let chosen = try rows.walk(for: RowRequest().using(.viewer(query: [("sort", "name")]))).get()
        #expect(chosen.source.template.query.map { "\($0.name)=\($0.value)" } == ["sort=name"])
        #expect(chosen.source.cache != nil && chosen.source.cache !== rows.source.cache)
    }
}
