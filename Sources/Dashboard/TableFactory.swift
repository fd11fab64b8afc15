import RowstreamKit
import Upstream

/// Builds the dashboard's tables from a config file: one page source per table over the shared upstream client,
/// each with its own cache (coalescing, TTL, prefetch), retry policy and checks.
enum TableFactory {
    /// The table `config` describes, fetching through `client`. `secrets` are redacted from its error messages
    /// and log lines.
    static func make(_ config: TableConfig, client: UpstreamClient, secrets: [String] = []) -> TableBinding {
        var binding = UpstreamTable.binding(spec: config.spec, source: source(config, client: client),
                                            batchSize: config.batchSize, maxEmptyPages: config.maxEmptyPages,
                                            secrets: secrets, proxyItems: config.proxyItems)
        binding.live = config.live
        binding.controls = config.controls
        return binding
    }

    /// The page source of the table `config` describes.
    static func source(_ config: TableConfig, client: UpstreamClient) -> PageSource {
        let cache = PageCache(ttl: config.cacheTTL, prefetch: config.prefetch)
        return PageSource(
            client: client, template: config.template, itemsPath: config.itemsPath, style: config.style,
            checks: config.checks, retry: config.retry, cache: cache
        )
    }
}
