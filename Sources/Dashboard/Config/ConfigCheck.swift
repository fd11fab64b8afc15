import Dispatch
import JSON
import Locking
import Tables
import Upstream

/// `rowstream --check-config FILE`: fetches the first page of every table of a validated config and describes
/// what it found (items, whether a next page follows, each column's value in the first item), so a config can be
/// tried before it is served. A table that forwards the viewer (`forward`) is not fetched: it has no viewer here. Never prints a URL, header or next link (they may hold secrets).
public enum ConfigCheck {
    /// Runs the check, writing lines to `output`; true if every table's first page loaded.
    /// - Important: blocks the calling thread until done; call it from the main thread, never from the
    ///   cooperative pool or an event loop.
    public static func run(_ config: ConfigFile, output: @escaping @Sendable (String) -> Void) -> Bool {
        let result = Lock(false)
        let done = DispatchSemaphore(value: 0)
        Task {
            let ok = await check(config, output: output)
            result.withLock { $0 = ok }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }
    }

    static func check(_ config: ConfigFile, output: @Sendable (String) -> Void) async -> Bool {
        let client: UpstreamClient
        do {
            client = try UpstreamClient(configuration: config.upstream)
        } catch {
            output("cannot start the upstream client: \(error)")
            return false
        }
        defer { client.shutdown() }
        var allLoaded = true
        for tableConfig in config.tables {
            let spec = tableConfig.spec
            let redacted = UpstreamTable.redacting(config.secrets)
            output("table \(spec.name) (\"\(spec.title)\"):")
            guard tableConfig.forward == nil else {
                // Its upstream answers a viewer's credential: a request without one would only be refused.
                output("  not fetched: it forwards each viewer's own name, header or cookie (forward)")
                continue
            }
            do throws(UpstreamError) {
                let page = try await TableFactory.source(tableConfig, client: client, reader: .json).fetchPage(cursor: nil)
                describe(page, spec: spec, style: tableConfig.style, redacted: redacted, output: output)
            } catch {
                output("  first page FAILED: " + redacted("\(error)"))
                allLoaded = false
            }
        }
        return allLoaded
    }

    private static func describe(_ page: UpstreamPage<JSONValue>, spec: TableSpec, style: PaginationStyle,
                                 redacted: (String) -> String, output: @Sendable (String) -> Void) {
        let keys = Set(page.items.compactMap { spec.keyField?.evaluate($0)?.serialized() })
        output("  items: \(page.items.count) (\(keys.count) distinct keys at '\(spec.keyField?.description ?? "")')")
        switch (page.nextCursor, style) {
        case (nil, _): output("  next: none (this is the only page)")
        case (_?, .linkHeader), (_?, .nextURL): output("  next: a link on the upstream's origin")
        case (let next?, _):
            // Redacted before it is shortened: a secret cut in half would not match.
            let shown = redacted(next)
            output("  next: cursor \(shown.count > 40 ? String(shown.prefix(40)) + "..." : shown)")
        }
        guard let first = page.items.first else {
            output("  columns: no item to show")
            return
        }
        output("  columns (first item):")
        for column in spec.columns {
            let value = column.field?.evaluate(first)
            let shown = redacted(value.map { String(decoding: $0.serialized(), as: UTF8.self) } ?? "MISSING")
            let text = shown.count > 60 ? String(shown.prefix(60)) + "..." : shown
            output(redacted("    \(column.title) [\(column.field?.description ?? "")] = \(text)"))
        }
    }
}
