import Foundation
import JSON
import RowstreamKit
import Tables
import Upstream

/// A table over an upstream JSON API, built on the public library like any code-defined table: a `BatchSource`
/// whose loader walks the upstream's pages (one `PageWalker` per viewer: no item twice, empty pages skipped),
/// and a row template that fills each column's cell from its JSON path. Config-file tables and the demo table
/// are made here.
enum UpstreamTable {
    /// The binding for `spec` over `source`. `secrets` are redacted from every message shown or logged.
    /// `proxyItems`: what its JSON proxy shows of each item (nil: no proxy).
    static func binding(
        spec: TableSpec, source: PageSource, batchSize: Int, maxEmptyPages: Int = 5, secrets: [String] = [],
        proxyItems: ProxyItems? = .columns
    ) -> TableBinding {
        let name = spec.name
        let redact = redacting(secrets)
        // The batches' token is the walk's position: the next cursor and the dedup window, sealed into every resume
        // token, so a reconnect (to any instance) drops the same repeats as the walk it continues.
        typealias Loader = BatchSource<JSONValue, WalkPosition?>.Loader
        let walk: @Sendable (PageSource) -> Loader = { [keyField = spec.keyField] source in
            let walker = PageWalker(keyPath: keyField, maxEmptyPages: maxEmptyPages)
            return { position in
                let batch: (page: Page, next: WalkPosition?)
                do throws(UpstreamError) {
                    batch = try await walker.nextBatch(from: source, at: position)
                } catch {
                    throw failure(error, table: name, redact: redact)
                }
                return batch.next.map { .items(batch.page.items, next: $0) } ?? .completed(batch.page.items)
            }
        }
        var batches = BatchSource<JSONValue, WalkPosition?>(initialToken: nil) { walk(source) }
        // Live refreshes read the head past the cache (a cached head would hide the changes).
        let uncached = PageSource(client: source.client, template: source.template, itemsPath: source.itemsPath,
                                  style: source.style, checks: source.checks, retry: source.retry, cache: nil)
        batches.makeFreshLoader = { walk(uncached) }
        // Controls (sort, filter): the same requests with the chosen parameters, each choice with a cache of its own.
        let caches = QueryCaches(source: source)
        batches.makeQueryLoader = { query in walk(caches.source(for: query)) }
        var binding = TableBinding(
            name: name, title: spec.title, columns: spec.columns.map(Self.column), batchSize: batchSize,
            sections: spec.sections.map(Self.sections), layout: spec.grid == nil ? .rows : .grid, source: batches
        ) { [columns = spec.columns, keyField = spec.keyField, sections = spec.sections, grid = spec.grid] item, row in
            row.setKey(keyField.evaluate(item))
            if let grid { row.setCard(title: grid.titleField.evaluate(item), image: grid.imageField?.evaluate(item)) }
            if let sections {
                var summand: JSONValue? = nil
                if case .sum(let path) = sections.footer { summand = path.evaluate(item) }
                row.setSection(sections.field.evaluate(item), summand: summand)
            }
            for column in columns {
                row.value(column.field.evaluate(item), label: column.labelField.flatMap { $0.evaluate(item) })
            }
        }
        if let proxyItems {
            let shown = proxyItems == .raw ? nil : proxyPaths(spec)
            binding.pageProxy = { cursor in
                do throws(UpstreamError) {
                    let page = try await source.fetchPage(cursor: cursor)
                    return (shown.map { paths in page.items.map { $0.projected(onto: paths) } } ?? page.items, page.nextCursor)
                } catch {
                    throw failure(error, table: name, redact: redact)
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
        var paths = [spec.keyField] + spec.columns.flatMap { [$0.field] + ($0.labelField.map { [$0] } ?? []) }
        if let sections = spec.sections {
            paths.append(sections.field)
            if case .sum(let path) = sections.footer { paths.append(path) }
        }
        if let grid = spec.grid { paths += [grid.titleField] + (grid.imageField.map { [$0] } ?? []) }
        return paths
    }

    private static func sections(_ spec: SectionSpec) -> TableSections {
        switch spec.footer {
        case .none: TableSections(footer: .none, footerLabel: spec.footerLabel)
        case .count: TableSections(footer: .count, footerLabel: spec.footerLabel)
        case .sum: TableSections(footer: .sum, footerLabel: spec.footerLabel)
        }
    }

    private static func column(_ column: Column) -> TableColumn {
        var result = TableColumn(column.title, format: column.format, width: column.width)
        result.field = column.field.description
        return result
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
