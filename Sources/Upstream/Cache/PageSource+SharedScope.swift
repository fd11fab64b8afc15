extension PageSource {
    /// What makes this source's pages its own, for ``SharedPageKeys``: its first page's request (method, URL with
    /// query and page size, headers, body), where its items are and how its pages link. Two sources share pages in
    /// a shared store only if all of it is equal. May hold secrets (headers): it is only ever hashed.
    public var sharedScope: [UInt8] {
        var scope: [UInt8] = []
        func field(_ text: String) {
            scope.append(contentsOf: text.utf8)
            scope.append(0)
        }
        let first = try? request(cursor: nil)
        field(first?.method ?? template.method)
        field(first?.url ?? template.url)
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
}
