import JSON

/// Where the next page starts, read from a fetched page (PageSource+Fetch.swift) per the ``PaginationStyle``.
extension PageSource {
    /// The next page's cursor per the style; nil at the end. With a has-more flag the end rules of counted
    /// styles are ignored (the flag decides).
    func nextCursor(body: JSONValue, response: UpstreamResponse, texts: ItemTexts,
                    cursor: String?) throws(UpstreamError) -> String? {
        let count = texts.count
        let flagDecides = checks.hasMorePath != nil
        switch style {
        case .cursor(_, let path), .cursorInBody(_, let path):
            return try Self.token(at: path, in: body, what: "next cursor")
        case .nextURL(let path):
            guard let link = try Self.token(at: path, in: body, what: "next link") else { return nil }
            return Self.resolved(link, base: response.effectiveURL)
        case .linkHeader:
            guard let header = response.header("link"), let link = LinkHeader.target(header, relation: "next") else {
                return nil
            }
            return Self.resolved(link, base: response.effectiveURL)
        case .keyset(_, let keyPath):
            guard count > 0 else { return nil }
            if !flagDecides && count < template.pageSize { return nil }
            guard let key = try Self.token(texts.value(at: keyPath, in: count - 1), at: keyPath, what: "key of the last item") else {
                throw .invalidPage("the last item has no key at '\(keyPath)'")
            }
            return key
        case .offset(_, let end):
            let offset = Int(cursor ?? "0") ?? 0
            if count == 0 && !flagDecides { return nil }
            let next = offset + count
            if !flagDecides, try Self.ended(end, body: body, count: count, pageSize: template.pageSize,
                                             seen: next, pagesSeen: nil) { return nil }
            return String(next)
        case .pageNumber(_, let first, let end):
            let page = Int(cursor ?? String(first)) ?? first
            if count == 0 && !flagDecides { return nil }
            let pagesSeen = page - first + 1
            if !flagDecides, try Self.ended(end, body: body, count: count, pageSize: template.pageSize,
                                             seen: pagesSeen * template.pageSize, pagesSeen: pagesSeen) { return nil }
            return String(page + 1)
        }
    }

    /// Whether a counted list has ended after this page.
    private static func ended(_ end: PageEnd, body: JSONValue, count: Int, pageSize: Int, seen: Int,
                              pagesSeen: Int?) throws(UpstreamError) -> Bool {
        switch end {
        case .total(let path):
            guard let total = path.evaluate(body)?.intValue else { throw .invalidPage("no total count at '\(path)'") }
            return Int64(seen) >= total
        case .totalPages(let path):
            guard let pages = path.evaluate(body)?.intValue else { throw .invalidPage("no page count at '\(path)'") }
            return Int64(pagesSeen ?? Int.max) >= pages
        case .shortPage:
            return count < pageSize
        case .emptyPage:
            return count == 0
        }
    }

    /// `link` resolved against the page's URL (as given if it cannot be). Not checked here: a link to another
    /// origin is still this page's next cursor, so the page's own items are delivered; ``request(cursor:)``
    /// refuses it with ``UpstreamError/offOrigin`` before anything is sent, so the next batch fails and the link
    /// is never followed.
    private static func resolved(_ link: String, base: String) -> String {
        UpstreamOrigin.resolve(link, against: base) ?? link
    }

    /// A string or integer at `path` as text; missing, null or "" = none.
    static func token(at path: JSONPath, in value: JSONValue, what: String) throws(UpstreamError) -> String? {
        try token(path.evaluate(value), at: path, what: what)
    }

    /// `found` (the value at `path`) as a token: a string or integer as text; missing, null or "" = none.
    static func token(_ found: JSONValue?, at path: JSONPath, what: String) throws(UpstreamError) -> String? {
        switch found {
        case nil, .null?: return nil
        case .string(let token)?: return token.isEmpty ? nil : token
        case .int(let number)?: return String(number)
        case .bigInteger(let literal)?: return literal
        default: throw .invalidPage("the \(what) at '\(path)' is not a string or an integer")
        }
    }

    static func shortened(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "..."
    }
}
