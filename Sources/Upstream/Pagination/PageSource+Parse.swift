import JSON

extension PageSource {
    /// Reads a 2xx response into a page: the body's checks, its items and the cursor of the next page.
    func parse(_ response: UpstreamResponse, cursor: String?) throws(UpstreamError) -> UpstreamPage {
        let body: JSONValue
        do {
            body = try JSONValue.parse(response.body)
        } catch {
            let type = response.header("content-type").map { " (\(Self.shortened($0, 60)))" } ?? ""
            throw .invalidPage("the body is not JSON\(type)")
        }
        try check(body)
        let items = try items(in: body)
        var next = try nextCursor(body: body, response: response, items: items, cursor: cursor)
        if let hasMorePath = checks.hasMorePath {
            guard let hasMore = hasMorePath.evaluate(body)?.boolValue else {
                throw .invalidPage("no true/false at '\(hasMorePath)'")
            }
            if !hasMore {
                next = nil
            } else if next == nil {
                throw .invalidPage("'\(hasMorePath)' says more follow, but there is no next page")
            }
        }
        if let next, next == cursor { throw .invalidPage("the next cursor repeats the current one (a loop)") }
        return UpstreamPage(items: items, nextCursor: next)
    }

    /// Applies the ok and error paths.
    private func check(_ body: JSONValue) throws(UpstreamError) {
        if let okPath = checks.okPath, okPath.evaluate(body) != .bool(true) {
            let detail = checks.errorPath.flatMap { $0.evaluate(body)?.displayText }.map { ": " + errorText($0) }
            throw .invalidPage("the upstream reported an error ('\(okPath)' is not true)\(detail ?? "")")
        }
        if let errorPath = checks.errorPath, let error = errorPath.evaluate(body), !error.isNull, error != .bool(false) {
            throw .invalidPage("the upstream reported an error: \(errorText(error.displayText ?? ""))")
        }
    }

    /// The upstream's error text as shown: secrets redacted first (a secret cut in half would not match), then
    /// the first 200 characters. Only the first 64 Ki characters are read.
    private func errorText(_ text: String) -> String {
        Self.shortened(checks.redactor.redact(String(text.prefix(65_536))), 200)
    }

    /// The items: the array at `itemsPath`, or every match when the path goes through `[]`.
    private func items(in body: JSONValue) throws(UpstreamError) -> [JSONValue] {
        if itemsPath.components.contains(.each) {
            // `edges[].node`: the container before the first `[]` must exist and be an array.
            let prefix = JSONPath(components: Array(itemsPath.components.prefix { $0 != .each }))
            guard prefix.evaluate(body)?.arrayValue != nil else { throw .invalidPage("no items array at '\(prefix)'") }
            return itemsPath.evaluateAll(body)
        }
        guard let items = itemsPath.evaluate(body)?.arrayValue else {
            throw .invalidPage("no items array at '\(itemsPath)'")
        }
        return items
    }

    /// The next page's cursor per the style; nil at the end. With a has-more flag the end rules of counted
    /// styles are ignored (the flag decides).
    private func nextCursor(body: JSONValue, response: UpstreamResponse, items: [JSONValue],
                            cursor: String?) throws(UpstreamError) -> String? {
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
            guard let last = items.last else { return nil }
            if !flagDecides && items.count < template.pageSize { return nil }
            guard let key = try Self.token(at: keyPath, in: last, what: "key of the last item") else {
                throw .invalidPage("the last item has no key at '\(keyPath)'")
            }
            return key
        case .offset(_, let end):
            let offset = Int(cursor ?? "0") ?? 0
            if items.isEmpty && !flagDecides { return nil }
            let next = offset + items.count
            if !flagDecides, try Self.ended(end, body: body, count: items.count, pageSize: template.pageSize,
                                             seen: next, pagesSeen: nil) { return nil }
            return String(next)
        case .pageNumber(_, let first, let end):
            let page = Int(cursor ?? String(first)) ?? first
            if items.isEmpty && !flagDecides { return nil }
            let pagesSeen = page - first + 1
            if !flagDecides, try Self.ended(end, body: body, count: items.count, pageSize: template.pageSize,
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
        switch path.evaluate(value) {
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
