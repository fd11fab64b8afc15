import Upstream

/// Builds the dashboard's tables from a config file: one page source per table over the shared upstream client,
/// each with its own cache (coalescing, TTL, prefetch), retry policy and checks.
enum TableFactory {
    /// The table `config` describes, fetching through `client`, sealing cursors with `seal`.
    /// `secrets` are redacted from its error messages and log lines.
    static func make(_ config: TableConfig, client: UpstreamClient, seal: CursorSeal, secrets: [String] = []) -> DashboardTable {
        let cache = PageCache(ttl: config.cacheTTL, prefetch: config.prefetch)
        let source = PageSource(
            client: client, template: config.template, itemsPath: config.itemsPath, style: config.style,
            checks: config.checks, retry: config.retry, cache: cache
        )
        return DashboardTable(spec: config.spec, source: source, batchSize: config.batchSize, seal: seal,
                              maxEmptyPages: config.maxEmptyPages, secrets: secrets)
    }
}
