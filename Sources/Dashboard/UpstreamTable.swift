import Foundation
import JSON
import RowstreamKit
import Tables
import Upstream

/// A table over an upstream JSON API, built on the public library like any code-defined table: its ``RowSource``
/// is an ``UpstreamRows`` walking the upstream's pages (one `PageWalker` per viewer: no item twice, empty pages
/// skipped). The spec's JSON paths are compiled once into a ``RowMaker``, which reads each item of a page straight
/// from the body's bytes into its typed `Row` as the page is fetched (`ItemReader.rows(_:)`): the walk loads rows.
/// Config-file tables and the demo table are made here.
enum UpstreamTable {
    /// The binding for `spec` over `source` (its pages read by `ItemReader.rows(_:)` of the same spec). `secrets` are
    /// redacted from every message shown or logged.
    /// `proxyItems`: what its JSON proxy shows of each item (nil: no proxy). `forward`: what of the viewer its requests
    /// carry (nil: nothing); such a table walks, caches and seals per identity (of each request's viewer), named with
    /// `keys` (the operator's: an identity is the same on every instance). `searchParameter`: the query parameter of
    /// its search (``TableSearch``), whose texts get small caches (``QueryCaches``).
    static func binding(
        spec: TableSpec, source: PageSource<Row>, batchSize: Int, maxEmptyPages: Int = 5, secrets: [String] = [],
        proxyItems: ProxyItems? = .columns, forward: ViewerForwarding? = nil, keys: SealingKeys = .random(),
        searchParameter: String? = nil
    ) -> TableBinding {
        let name = spec.name
        let redactor = SecretRedactor(secrets: secrets)
        let hashKey = WalkHashKey.random()
        let caches = QueryCaches(source: source, forward: forward, searchParameter: searchParameter)
        let rows = UpstreamRows(
            table: name, keyField: spec.keyField, maxEmptyPages: maxEmptyPages, hashKey: hashKey,
            pageHashes: PageKeyHashes(key: hashKey), source: source, refreshing: source.refreshing(), caches: caches,
            secrets: secrets, redactor: redactor, forward: forward, keys: keys)
        var binding = TableBinding(spec: spec, batchSize: batchSize, source: rows)
        // A head another instance of the cluster refreshed: this one's copy of the page it came from goes (the next
        // read gets the refreshed one from the shared store). A forwarding table's feeds are each instance's own.
        if forward == nil, let cache = source.cache { binding.dropCachedHead = { cache.drop(nil) } }
        if let proxyItems {
            let shown = proxyItems == .raw ? nil : proxyPaths(spec)
            binding.upstreamPageProxy = { cursor, request in
                // The controls' choice and search (`p.q=`): the same source (and cache) as the walks of that choice.
                var source = request.query.isEmpty ? source : caches.source(for: request.query), redactor = redactor
                if let forward {
                    let viewer = try forward.resolve(request.viewer, keys: keys).mapError { refusal in
                        LoadFailure(message: refusal.message, isRetryable: false)
                    }.get()
                    source = caches.source(for: request.query, as: viewer)
                    redactor = SecretRedactor(secrets: secrets + viewer.secrets)
                }
                do throws(UpstreamError) {
                    let page = try await source.fetchPage(cursor: cursor)
                    if let total = page.total { request.reportTotal(total) }
                    let items = page.texts.values
                    return (shown.map { paths in items.map { $0.projected(onto: paths) } } ?? items, page.nextCursor)
                } catch {
                    throw failure(error, table: name, redactor: redactor, logger: request.logger)
                }
            }
        }
        if let forward {
            binding.partition = { (viewer: Viewer) -> ViewerPartition in
                switch forward.resolve(viewer, keys: keys) {
                case .success(let forwarded): .identity(forwarded.identity)
                case .failure(let refusal): .refused(refusal.message)
                }
            }
        }
        return binding
    }

    /// A function that replaces every secret (API tokens from the environment) in a message by `[redacted]`, in
    /// every form the server sends it (``SecretRedactor``), should an upstream have echoed one back.
    static func redacting(_ secrets: [String]) -> @Sendable (String) -> String {
        let redactor = SecretRedactor(secrets: secrets)
        return { message in redactor.redact(message) }
    }

    /// Every path of an item the table shows (columns and their labels, key, section, sum, card title and image):
    /// what the JSON proxy keeps of each item by default.
    static func proxyPaths(_ spec: TableSpec) -> [JSONPath] {
        var paths: [JSONPath?] = [spec.keyField] + spec.columns.flatMap { [$0.field, $0.labelField] }
        if let sections = spec.sections {
            paths.append(sections.field)
            if case .sum(let path) = sections.footer { paths.append(path) }
        }
        if let grid = spec.grid { paths += [grid.titleField, grid.imageField] }
        return paths.compactMap { $0 }
    }

    /// An upstream error as the failure a viewer sees, and a line to `logger` (not for cancellations), secrets
    /// hidden by `redactor`. Messages are `UpstreamError` descriptions: never a URL or a header.
    static func failure(
        _ error: UpstreamError, table: String, redactor: SecretRedactor, logger: any RowstreamLogger
    ) -> LoadFailure {
        let message = redactor.redact("\(error)")
        if error != .cancelled { logger.log(.error, "table \(table): \(message)") }
        return LoadFailure(message: "Loading rows failed: \(message)", isRetryable: error.isRetryable)
    }
}
