import Foundation
import JSON
import RowstreamKit
import Tables
import Upstream

/// A table over an upstream JSON API, built on the public library like any code-defined table: a `BatchSource`
/// whose loader walks the upstream's pages (one `PageWalker` per viewer: no item twice, empty pages skipped). The
/// spec's JSON paths are compiled once into a ``RowMaker``, which reads each item of a page straight from the body's
/// bytes into its typed `Row` as the page is fetched (``rows(_:)``): the walk loads rows. Config-file tables and the
/// demo table are made here.
enum UpstreamTable {
    /// How a table's pages are read: each item straight into its row by the spec's compiled paths. The reader of
    /// every source ``binding(spec:source:batchSize:maxEmptyPages:secrets:proxyItems:forward:keys:)`` is given.
    static func rows(_ spec: TableSpec) -> ItemReader<Row> {
        let maker = RowMaker(spec: spec)
        return ItemReader { (text) throws(JSONError) in try maker.row(json: text) }
    }

    /// The binding for `spec` over `source` (its pages read by ``rows(_:)`` of the same spec). `secrets` are
    /// redacted from every message shown or logged.
    /// `proxyItems`: what its JSON proxy shows of each item (nil: no proxy). `forward`: what of the viewer its requests
    /// carry (nil: nothing); such a table walks, caches and seals per identity (of ``Viewer/current`` where a loader is
    /// made), named with `keys` (the operator's: an identity is the same on every instance).
    static func binding(
        spec: TableSpec, source: PageSource<Row>, batchSize: Int, maxEmptyPages: Int = 5, secrets: [String] = [],
        proxyItems: ProxyItems? = .columns, forward: ViewerForwarding? = nil, keys: SealingKeys = .random()
    ) -> TableBinding {
        let name = spec.name
        let redact = redacting(secrets)
        // The batches' token is the walk's position: the next cursor and the dedup window, sealed into every resume
        // token, so a reconnect (to any instance) drops the same repeats as the walk it continues.
        // The walk is the loader (one walker per use): its items go straight to the table's row pipeline.
        // One hash key for the table's walks: viewers reading the same page get equal positions, sealed once.
        typealias Loader = BatchSource<Row, WalkPosition?>.Loader
        let hashKey = WalkHashKey.random()
        // And one hashing of each cached page's keys for all of them.
        let pageHashes = PageKeyHashes(key: hashKey)
        // A forwarding table's messages hide the viewer's forwarded values too, should the upstream echo one back.
        let walk: @Sendable (PageSource<Row>, ViewerForwarding.Forwarded?) -> Loader = { [keyField = spec.keyField] source, viewer in
            let redact = viewer.map { redacting(secrets + $0.secrets) } ?? redact
            return PageWalker(keyPath: keyField, maxEmptyPages: maxEmptyPages, hashKey: hashKey, pageHashes: pageHashes).loader(over: source) { error in
                failure(error, table: name, redact: redact)
            }
        }
        // Controls (sort, filter): the same requests with the chosen parameters, each choice with a cache of its own;
        // a forwarding table's, each viewer's choice.
        let caches = QueryCaches(source: source, forward: forward)
        // Live refreshes read the head past the cache (a cached head would hide the changes) and put what they read
        // into it before their changes go out: a viewer who comes after a change gets the page it came from.
        let refreshing = source.refreshing()
        // What the viewer being answered forwards; a refusal (fails closed) where they forward nothing valid.
        let forwarded = { @Sendable () throws(LoadFailure) -> ViewerForwarding.Forwarded? in
            guard let forward else { return nil }
            return try forward.resolve(Viewer.current, keys: keys).mapError { refusal in
                LoadFailure(message: refusal.message, isRetryable: false)
            }.get()
        }
        // A walk does little before it suspends (a page from memory answers at once, a miss suspends on the fetch)
        // and never blocks: a viewer's first batch may start on the event loop.
        let batches = BatchSource<Row, WalkPosition?>(initialToken: nil, startsOnCaller: true, loaders: { use in
            if forward != nil {
                // Each identity's own.
                let viewer: ViewerForwarding.Forwarded?
                do throws(LoadFailure) { viewer = try forwarded() } catch let refusal {
                    return { _ in throw refusal }
                }
                switch use {
                case .fresh: return walk(caches.source(for: [], as: viewer).refreshing(), viewer)
                case .viewer(let query): return walk(caches.source(for: query, as: viewer), viewer)
                }
            }
            switch use {
            case .fresh: return walk(refreshing, nil)
            case .viewer(let query) where !query.isEmpty: return walk(caches.source(for: query), nil)
            case .viewer: return walk(source, nil)
            }
        })
        var binding = TableBinding(spec: spec, batchSize: batchSize, source: batches)
        // A head another instance of the cluster refreshed: this one's copy of the page it came from goes (the next
        // read gets the refreshed one from the shared store). A forwarding table's feeds are each instance's own.
        if forward == nil, let cache = source.cache { binding.dropCachedHead = { cache.drop(nil) } }
        if let proxyItems {
            let shown = proxyItems == .raw ? nil : proxyPaths(spec)
            binding.pageProxy = { cursor in
                var source = source, redact = redact
                if forward != nil, let viewer = try forwarded() {
                    source = caches.source(for: [], as: viewer)
                    redact = redacting(secrets + viewer.secrets)
                }
                do throws(UpstreamError) {
                    let page = try await source.fetchPage(cursor: cursor)
                    let items = page.texts.values
                    return (shown.map { paths in items.map { $0.projected(onto: paths) } } ?? items, page.nextCursor)
                } catch {
                    throw failure(error, table: name, redact: redact)
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
