import JSON
import RowstreamKit
import Tables
import Upstream

/// The demo table: customers from the built-in demo upstream, with one column of every format (MRR as a bar, the
/// seats' 12-week trend as a sparkline, "Trend").
enum DemoTable {
    static func make(client: UpstreamClient, upstreamPort: Int, batchSize: Int,
                     demo: DemoUpstream.Configuration = DemoUpstream.Configuration(),
                     name: String = "customers", title: String = "Customers",
                     cluster: SharedCluster? = nil) throws -> TableBinding {
        var spec = TableSpec(
            name: name,
            title: title,
            columns: [
                Column(title: "ID", field: try JSONPath("id"), format: .number, width: "5rem"),
                Column(title: "Name", field: try JSONPath("name"), format: .text),
                Column(title: "City", field: try JSONPath("city"), format: .text, width: "8rem"),
                Column(title: "Status", field: try JSONPath("status"), format: .badge, width: "7.5rem"),
                Column(title: "Plan", field: try JSONPath("plan"), format: .text, width: "7rem"),
                Column(title: "Seats", field: try JSONPath("seats"), format: .number, width: "5.5rem"),
                // The demo's MRR runs from 0 to 250,000: a configured range keeps bars comparable across batches.
                Column(title: "MRR ($)", field: try JSONPath("mrr"), format: .bar, width: "10rem", decimals: 0,
                       range: 0...250_000),
                Column(title: "Trend", field: try JSONPath("seats_trend"), format: .sparkline, width: "5.5rem"),
                Column(title: "Created", field: try JSONPath("created_at"), format: .date, width: "11.5rem"),
                Column(title: "Website", field: try JSONPath("website"), format: .link, width: "8.5rem"),
            ],
            keyField: try JSONPath("id")
        )
        var template = PageRequestTemplate(url: "http://127.0.0.1:\(upstreamPort)/v1/customers")
        template.pageSize = batchSize
        if let field = demo.sectionField {
            template.query.append(("sort", field))
            spec.sections = SectionSpec(field: try JSONPath(field), footer: .sum(try JSONPath("mrr")), footerLabel: "MRR")
        }
        if demo.grid { spec.grid = GridSpec(titleField: try JSONPath("name")) }
        var checks = PageChecks()
        checks.totalPath = try JSONPath("total_count")   // the demo upstream reports the list's size
        let source = PageSource(
            client: client,
            template: template,
            itemsPath: try JSONPath("data"),
            style: .cursor(parameter: "cursor", nextCursorPath: try JSONPath("next_cursor")),
            reader: ItemReader.rows(spec),   // the spec is complete: its paths read each item into its row
            checks: checks
        ).caching(in: PageCache(
            // Viewers of the same page share one fetch (a viewer storm makes one upstream request per page) and
            // pages stay fresh for a few seconds. No prefetch: the demo's request count and its --demo-fail-every
            // failures follow the viewers' demand exactly. In a cluster every instance runs its own demo upstream
            // (the same data on a port of its own): pages are shared whatever the port.
            ttl: PageCacheDefaults.ttl, prefetch: false, shared: cluster?.sharedPages(table: name, ignoresOrigin: true)
        ))
        let search = TableSearch(parameter: "q", maxLength: 100, label: "Search names")
        var binding = UpstreamTable.binding(spec: spec, source: source, batchSize: batchSize,
                                            searchParameter: demo.controls ? search.parameter : nil)
        if demo.controls {
            binding.controls = controls
            binding.search = search
        }
        if demo.liveEvery != nil || demo.refreshEvery != nil || demo.benchStamp {
            // Bench mode publishes through POST refresh many times a second (Scripts/bench fanout): no rate limit.
            binding.live = LiveUpdates(every: demo.refreshEvery, limit: demo.benchStamp ? .benchmark : .standard)
        }
        return binding
    }

    /// The demo's sort and filter controls (the demo upstream's `sort` and `status` parameters). The Name, City and
    /// MRR headers sort too (columns 1, 2 and 6: their options are header sorts).
    static let controls = [
        TableControl(parameter: "sort", label: "Sort", options: [
            .init(value: "", label: "ID"),
            .init(value: "name", label: "Name", headerSort: .init(column: 1, direction: .ascending)),
            .init(value: "-name", label: "Name, Z to A", headerSort: .init(column: 1, direction: .descending)),
            .init(value: "city", label: "City", headerSort: .init(column: 2, direction: .ascending)),
            .init(value: "-city", label: "City, Z to A", headerSort: .init(column: 2, direction: .descending)),
            .init(value: "-mrr", label: "MRR, highest first", headerSort: .init(column: 6, direction: .descending)),
            .init(value: "mrr", label: "MRR, lowest first", headerSort: .init(column: 6, direction: .ascending)),
        ]),
        TableControl(parameter: "status", label: "Status", options: [
            .init(value: "", label: "Any"), .init(value: "active", label: "Active"), .init(value: "trial", label: "Trial"),
            .init(value: "suspended", label: "Suspended"),
        ]),
    ]
}
