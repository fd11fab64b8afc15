import RowstreamKit
import Upstream

/// The demo's page of several tables (`/pages/overview`, on with `--demo-page on`, the executable's default): the
/// demo table as configured by the flags, the same customers in sections by city (MRR summed), and as cards, all
/// three on one event stream.
enum DemoPage {
    static let page = DashboardPage(name: "overview", title: "Customers overview",
                                tables: ["customers", "customers-by-city", "customers-cards"])

    /// The page's tables besides the demo table itself.
    static func extraTables(client: UpstreamClient, upstreamPort: Int, batchSize: Int,
                            demo: DemoUpstream.Configuration, cluster: SharedCluster? = nil) throws -> [TableBinding] {
        var plain = DemoUpstream.Configuration()
        plain.liveEvery = demo.liveEvery
        plain.refreshEvery = demo.refreshEvery
        var byCity = plain
        byCity.sectionField = "city"
        var cards = plain
        cards.grid = true
        return [
            try DemoTable.make(client: client, upstreamPort: upstreamPort, batchSize: batchSize, demo: byCity,
                               name: "customers-by-city", title: "Customers by city", cluster: cluster),
            try DemoTable.make(client: client, upstreamPort: upstreamPort, batchSize: batchSize, demo: cards,
                               name: "customers-cards", title: "Customer cards", cluster: cluster),
        ]
    }
}
