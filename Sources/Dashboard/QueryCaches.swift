import Synchronization
import Upstream

/// The page sources of one table for the query parameters its viewers' controls chose: the table's request with
/// those parameters set (replacing any of the same name), and a page cache per choice, so that viewers of the same
/// choice share fetches and no choice is served another's pages (in the cluster's shared store too: each choice's
/// pages are keyed by its own requests).
///
/// Thread-safe: one `Mutex` over the sources made so far (bounded by the controls' option combinations, and at
/// most 64: past that a choice gets a source without a cache).
final class QueryCaches: Sendable {
    private let base: PageSource
    private let sources = Mutex<[String: PageSource]>([:])

    init(source: PageSource) {
        base = source
    }

    func source(for query: [(name: String, value: String)]) -> PageSource {
        let key = query.map { $0.name + "=" + $0.value }.joined(separator: "&")
        return sources.withLock { sources in
            if let known = sources[key] { return known }
            var template = base.template
            for (name, value) in query {
                template.query.removeAll { $0.name == name }
                template.query.append((name, value))
            }
            let made = PageSource(client: base.client, template: template, itemsPath: base.itemsPath, style: base.style,
                                  checks: base.checks, retry: base.retry)
                .caching(in: sources.count < 64 ? base.cache : nil)
            if sources.count < 64 { sources[key] = made }
            return made
        }
    }
}
