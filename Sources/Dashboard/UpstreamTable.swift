import Foundation
import JSON
import RowstreamKit
import Tables
import Upstream

/// A table over an upstream JSON API, built on the public library like any code-defined table: a `BatchSource`
/// whose loader walks the upstream's pages (one `PageWalker` per viewer: no item twice, empty pages skipped),
/// and the spec's JSON paths compiled once into a ``RowMaker`` (item in, typed `Row` out). Config-file tables and
/// the demo table are made here.
enum UpstreamTable {
    /// The binding for `spec` over `source`. `secrets` are redacted from every message shown or logged.
    /// `proxyItems`: what its JSON proxy shows of each item (nil: no proxy). `forward`: what of the viewer its requests
    /// carry (nil: nothing); such a table walks, caches and seals per viewer (``Viewer/current`` where a loader is made).
    static func binding(
        spec: TableSpec, source: PageSource, batchSize: Int, maxEmptyPages: Int = 5, secrets: [String] = [],
        proxyItems: ProxyItems? = .columns, forward: ViewerForwarding? = nil
    ) -> TableBinding {
        let name = spec.name
        let redact = redacting(secrets)
        // The batches' token is the walk's position: the next cursor and the dedup window, sealed into every resume
        // token, so a reconnect (to any instance) drops the same repeats as the walk it continues.
        // The walk is the loader (one walker per use): its items go straight to the table's row pipeline.
        // One hash key for the table's walks: viewers reading the same page get equal positions, sealed once.
        typealias Loader = BatchSource<JSONValue, WalkPosition?>.Loader
        let hashKey = WalkHashKey.random()
        let walk: @Sendable (PageSource) -> Loader = { [keyField = spec.keyField] source in
            PageWalker(keyPath: keyField, maxEmptyPages: maxEmptyPages, hashKey: hashKey).loader(over: source) { error in
                failure(error, table: name, redact: redact)
            }
        }
        // Controls (sort, filter): the same requests with the chosen parameters, each choice with a cache of its own;
        // a forwarding table's, each viewer's choice.
        let caches = QueryCaches(source: source, forward: forward)
        // Live refreshes read the head past the cache (a cached head would hide the changes).
        let uncached = caches.uncached(for: [])
        let batches = BatchSource<JSONValue, WalkPosition?>(initialToken: nil, loaders: { use in
            if forward != nil {
                // Each viewer's own: refused (fails closed) where no viewer is known.
                let viewer = Viewer.current
                guard !viewer.isEveryone, !viewer.name.isEmpty else { return { _ in throw Self.noViewer } }
                switch use {
                case .fresh: return walk(caches.uncached(for: [], viewer: viewer))
                case .viewer(let query): return walk(caches.source(for: query, viewer: viewer))
                }
            }
            switch use {
            case .fresh: return walk(uncached)
            case .viewer(let query) where !query.isEmpty: return walk(caches.source(for: query))
            case .viewer: return walk(source)
            }
        })
        let rows = RowMaker(spec: spec)
        var binding = TableBinding(spec: spec, batchSize: batchSize, source: batches, makeRow: rows.row)
        if let proxyItems {
            let shown = proxyItems == .raw ? nil : proxyPaths(spec)
            binding.pageProxy = { cursor in
                var source = source
                if forward != nil {
                    let viewer = Viewer.current
                    guard !viewer.isEveryone, !viewer.name.isEmpty else { throw Self.noViewer }
                    source = caches.source(for: [], viewer: viewer)
                }
                do throws(UpstreamError) {
                    let page = try await source.fetchPage(cursor: cursor)
                    return (shown.map { paths in page.items.map { $0.projected(onto: paths) } } ?? page.items, page.nextCursor)
                } catch {
                    throw failure(error, table: name, redact: redact)
                }
            }
        }
        binding.viewerScoped = forward != nil
        return binding
    }

    /// What a forwarding table answers where no viewer is known (never, where the access layer bound one).
    private static let noViewer = LoadFailure(message: "This table shows each viewer's own rows: no viewer is known.",
                                              isRetryable: false)

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

    /// An upstream error as the failure a viewer sees, and a log line (not for cancellations). Messages are
    /// `UpstreamError` descriptions: never a URL or a header.
    private static func failure(
        _ error: UpstreamError, table: String, redact: (String) -> String
    ) -> LoadFailure {
        let message = redact("\(error)")
        if error != .cancelled { TableBinding.log("table \(table): \(message)") }
        return LoadFailure(message: "Loading rows failed: \(message)", isRetryable: error.isRetryable)
    }
}
