extension PageSource {
    /// What makes this source's pages its own, for ``SharedPageKeys``: its first page's request (method, URL with
    /// query and page size, headers, body), where its items are and how its pages link. Two sources share pages in
    /// a shared store only if all of it is equal. May hold secrets (headers): it is only ever hashed.
    /// `withOrigin: false` leaves the URL's scheme, host and port out (``SharedPages/ignoresOrigin``).
    public func sharedScope(withOrigin: Bool = true) -> [UInt8] {
        var scope: [UInt8] = []
        func field(_ text: String) {
            scope.append(contentsOf: text.utf8)
            scope.append(0)
        }
        let first = try? request(cursor: nil)
        var url = first?.url ?? template.url
        if !withOrigin, let origin = self.origin, origin.contains(url) {
            url = String(url.drop { $0 != "/" }.dropFirst(2).drop { $0 != "/" })
        }
        field(first?.method ?? template.method)
        field(url)
        for header in first?.headers ?? template.headers {
            field(header.name)
            field(header.value)
        }
        scope.append(1)
        scope.append(contentsOf: first?.body ?? [])
        scope.append(0)
        field(itemsPath.description)
        field(String(describing: style))
        return scope
    }

    /// This source with `cache`, whose shared level (if any) is keyed by this source's own requests
    /// (``sharedScope(withOrigin:)``): how a table's source and each of its query choices get their caches.
    public func caching(in cache: PageCache<Item>?) -> PageSource {
        let scoped = cache.map { cache in
            let shared = cache.shared.map { shared in
                var shared = shared
                shared.keys = shared.keys.rescoped(to: sharedScope(withOrigin: !shared.ignoresOrigin))
                return shared
            }
            return PageCache<Item>(ttl: cache.ttl, prefetch: cache.prefetch, capacity: cache.capacity, shared: shared)
        }
        return PageSource(client: client, template: template, itemsPath: itemsPath, style: style, reader: reader,
                          checks: checks, retry: retry, cache: scoped)
    }
}
