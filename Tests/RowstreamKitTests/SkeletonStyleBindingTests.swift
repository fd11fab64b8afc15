import RowstreamKit
import RowstreamTesting
import TestSupport
import Testing

/// A code-defined table's ``SkeletonStyle``: on its page's table and in the viewer's /tables.css.
@Suite struct SkeletonStyleBindingTests {
    @Test func aBindingsSkeletonStyleReachesItsPageAndStylesheet() async throws {
        let table = TableBinding(name: "calm", title: "Calm", columns: [TableColumn("Name")], batchSize: 3,
                                 skeleton: SkeletonStyle(animation: .pulse, speed: 3),
                                 source: offsetSource(people(3), size: 3)) { person, row in row.text(person.name) }
        let server = try testServer([table])
        defer { server.shutdown() }
        #expect(await server.client.get("/tables/calm").text.contains(#" data-skeleton="pulse" aria-busy="true">"#))
        #expect(await server.client.get("/tables.css").text.contains(#"[data-table="calm"]{--rs-skeleton-speed:3s}"#))
    }
}
