import RowstreamKit
import Upstream

/// Builds the dashboard's tables from a config file: one page source per table over the shared upstream client,
/// each with its own cache (coalescing, TTL, prefetch; shared with the cluster's other instances through `cluster`),
/// retry policy and checks.
enum TableFactory {
    /// The table `config` describes, fetching through `client`. `secrets` are redacted from its error messages
    /// and log lines; `keys` (the operator's) name the identities of a table that forwards the viewer.
    static func make(_ config: TableConfig, client: UpstreamClient, secrets: [String] = [],
                     cluster: SharedCluster? = nil, keys: SealingKeys = .random()) -> TableBinding {
        let source = source(config, client: client, cluster: cluster, reader: ItemReader.rows(config.spec))
        var binding = UpstreamTable.binding(spec: config.spec, source: source,
                                            batchSize: config.batchSize, maxEmptyPages: config.maxEmptyPages,
                                            secrets: secrets, proxyItems: config.proxyItems,
                                            forward: config.forward, keys: keys,
                                            searchParameter: config.search?.parameter)
        binding.live = config.live
        binding.controls = config.controls
        binding.search = config.search
        binding.exportMaxRows = config.exportMaxRows
        return binding
    }

    /// The page source of the table `config` describes, its items read by `reader` (the table's rows; JSON values
    /// for `--check-config`).
    static func source<Item>(_ config: TableConfig, client: UpstreamClient, cluster: SharedCluster? = nil,
                             reader: ItemReader<Item>) -> PageSource<Item> {
        let cache = PageCache<Item>(ttl: config.cacheTTL, prefetch: config.prefetch,
                                    shared: cluster?.sharedPages(table: config.spec.name))
        return PageSource(
            client: client, template: config.template, itemsPath: config.itemsPath, style: config.style,
            reader: reader, checks: config.checks, retry: config.retry
        ).caching(in: cache)
    }
}
