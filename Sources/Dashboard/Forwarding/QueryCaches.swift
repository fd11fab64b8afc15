import RowstreamKit
import Locking
import Upstream

/// The page sources of one table for the query parameters its viewers' controls chose, and for a table that forwards
/// what the viewer sent upstream (``ViewerForwarding``) for each identity: the table's request with those parameters
/// (and the identity's forwarded headers and parameters) set, replacing any of the same name, and a page cache per
/// choice and identity. So viewers of the same choice (and identity) share fetches, and no choice or identity is served
/// another's pages (in the cluster's shared store too: each source's pages are keyed by its own requests, hashed).
///
/// A choice with a search text (the query holds the search's parameter: free text, so any viewer can make many) gets
/// a cache of at most ``searchPageCapacity`` pages; the choices of the config's options keep the table's capacity.
///
/// Thread-safe: one `Lock` over the sources made so far, at most 64 (query choices) or 256 (choices of identities of
/// a forwarding table), keyed by the identity (a keyed hash), never by a forwarded value; past that the least
/// recently used is dropped (its walks in flight keep it; its cache goes).
final class QueryCaches<Item: Sendable>: Sendable {
    /// The most pages the cache of a choice with a search text keeps (a table's own cache: 256 by default).
    static var searchPageCapacity: Int { 16 }

    private struct Entry {
        var source: PageSource<Item>
        var used: UInt64
    }

    private let base: PageSource<Item>
    private let forward: ViewerForwarding?
    private let capacity: Int
    private let searchParameter: String?
    private let sources = Lock<(entries: [String: Entry], clock: UInt64)>(([:], 0))

    /// `searchParameter`: the query parameter of the table's search (``TableSearch/parameter``; nil: none).
    init(source: PageSource<Item>, forward: ViewerForwarding? = nil, searchParameter: String? = nil) {
        base = source
        self.forward = forward
        self.searchParameter = searchParameter
        capacity = forward == nil ? 64 : 256
    }

    /// How many choices (and identities) have a source now: at most 64 (256).
    var count: Int { sources.withLock { $0.entries.count } }

    /// The source of `query` as a viewer who forwards `forwarded` asks for it (only for a forwarding table).
    func source(for query: [(name: String, value: String)], as forwarded: ViewerForwarding.Forwarded? = nil) -> PageSource<Item> {
        var key = query.map { $0.name + "=" + $0.value }.joined(separator: "&")
        if forward != nil { key = (forwarded?.identity ?? "") + "\0" + key }
        return sources.withLock { sources in
            sources.clock += 1
            if sources.entries[key] != nil {
                sources.entries[key]?.used = sources.clock
                return sources.entries[key]!.source
            }
            let made = uncached(for: query, as: forwarded).caching(in: cache(for: query))
            if sources.entries.count >= capacity,
               let oldest = sources.entries.min(by: { $0.value.used < $1.value.used })?.key {
                sources.entries[oldest] = nil
            }
            sources.entries[key] = Entry(source: made, used: sources.clock)
            return made
        }
    }

    /// The cache a source of `query` copies (its settings; each source gets its own): the table's, or for a search
    /// text one of at most ``searchPageCapacity`` pages.
    private func cache(for query: [(name: String, value: String)]) -> PageCache<Item>? {
        guard let cache = base.cache, let searchParameter, query.contains(where: { $0.name == searchParameter }),
              cache.capacity > Self.searchPageCapacity
        else { return base.cache }
        return PageCache(ttl: cache.ttl, prefetch: cache.prefetch, capacity: Self.searchPageCapacity, shared: cache.shared)
    }

    /// The source of `query` as a viewer who forwards `forwarded` asks for it, without a cache.
    private func uncached(for query: [(name: String, value: String)], as forwarded: ViewerForwarding.Forwarded? = nil) -> PageSource<Item> {
        var template = base.template
        if let forward, let forwarded { template = forward.applied(to: template, forwarded) }
        for (name, value) in query {
            template.query.removeAll { $0.name == name }
            template.query.append((name, value))
        }
        return PageSource(client: base.client, template: template, itemsPath: base.itemsPath, style: base.style,
                          reader: base.reader, checks: base.checks, retry: base.retry, cache: nil)
    }
}
