import JSON

/// One upstream page, fetched and read in one flow: from the cache (shared fetch, prefetch) or the upstream, the
/// request sent (retried per `retry`, redirects followed within the origin), the 2xx answer's body read in one pass
/// (the document's own fields parsed, each item left as its JSON text and read by the source's ``ItemReader``: a
/// config table's straight into its row), checked (``PageChecks``). The request is made in PageSource.swift (with
/// where the body is read: ``itemsPath(_:)``, ``enters(_:_:)``), the next cursor worked out in
/// PageSource+NextCursor.swift.
extension PageSource {
    /// Fetches one page. `cursor` nil = the first page; otherwise a cursor this source returned. A
    /// ``refreshing()`` source fetches it past the cache and puts it in.
    ///
    /// A non-2xx answer (after retries) throws ``UpstreamError/httpStatus(_:)``; a body that is not JSON, fails
    /// the checks, or has no items throws ``UpstreamError/invalidPage(_:)``; a redirect to another origin, or a
    /// `cursor` that is a next link to another origin, throws ``UpstreamError/offOrigin`` (nothing is sent to it).
    /// A page whose own next link leads to another origin is returned with its items and that link as its next
    /// cursor: the fetch of that cursor fails, so its items are shown and the following batch fails. An empty
    /// page that still carries a next cursor is not the end. A next cursor equal to the one just sent throws `.invalidPage`, since following it would loop.
    public func fetchPage(cursor: String?) async throws(UpstreamError) -> UpstreamPage<Item> {
        guard let cache else { return try await fetchUncached(cursor: cursor) }
        if refreshes { return try await cache.replace(cursor, load: uncachedLoad(cursor)).get() }
        let page = try await cache.page(for: cursor, reader: reader, load: uncachedLoad(cursor)).get()
        if cache.prefetch, let next = page.nextCursor { cache.prefetch(next, reader: reader, load: uncachedLoad(next)) }
        return page
    }

    /// ``fetchPage(cursor:)``'s page when the cache holds it fresh now (its next page prefetched as there), else nil:
    /// nothing is fetched. Returns at once, so a caller on an event loop may ask (``PageWalker/firstBatchInMemory(from:)``).
    public func pageInMemory(cursor: String?) -> UpstreamPage<Item>? {
        guard let cache, !refreshes, let page = cache.freshPage(for: cursor) else { return nil }
        if cache.prefetch, let next = page.nextCursor { cache.prefetch(next, reader: reader, load: uncachedLoad(next)) }
        return page
    }

    /// The cache's fetch of `cursor`'s page: ``fetchUncached(cursor:)`` as a result.
    private func uncachedLoad(_ cursor: String?) -> PageCache<Item>.Load {
        { () async -> Result<UpstreamPage<Item>, UpstreamError> in
            do throws(UpstreamError) { return .success(try await fetchUncached(cursor: cursor)) } catch { return .failure(error) }
        }
    }

    /// One page straight from the upstream (no cache).
    func fetchUncached(cursor: String?) async throws(UpstreamError) -> UpstreamPage<Item> {
        let response = try await send(try request(cursor: cursor))
        return try parse(response, cursor: cursor)
    }

    /// Performs `request`, following redirects within the origin and retrying per `retry`. Returns a 2xx
    /// response; throws the last failure otherwise.
    private func send(_ request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
        let retryable = retry.allows(method: request.method)
        var attempt = 1
        while true {
            let failure: UpstreamError
            var retryAfter: Duration? = nil
            do throws(UpstreamError) {
                let response = try await followingRedirects(request)
                if response.isSuccess { return response }
                failure = .httpStatus(response.status)
                retryAfter = response.header("retry-after").flatMap { RetryAfter.parse($0) }
            } catch {
                failure = error
            }
            guard retryable, failure.isRetryable, attempt < retry.maxAttempts,
                  let delay = retry.delay(beforeRetry: attempt, retryAfter: retryAfter, unit: Double.random(in: 0..<1))
            else { throw failure }
            await retry.sleep(delay)
            if Task.isCancelled { throw .cancelled }
            attempt += 1
        }
    }

    /// Performs `request` with libcurl's own redirect following off, following up to `maxRedirects`
    /// redirects itself, each only if it stays within `origin`.
    private func followingRedirects(_ request: UpstreamRequest) async throws(UpstreamError) -> UpstreamResponse {
        var current = request
        current.followRedirects = false
        for _ in 0...Self.maxRedirects {
            let response = try await client.fetch(current)
            guard (300..<400).contains(response.status), let location = response.redirectURL else { return response }
            guard let origin, origin.contains(location) else { throw .offOrigin }
            current.url = location
            let method = current.method.uppercased()
            if response.status == 303 || ((response.status == 301 || response.status == 302) && method == "POST") {
                current.method = "GET"
                current.body = nil
            }
        }
        throw .tooManyRedirects
    }

    /// Reads a 2xx response into a page: the body's checks, its items and the cursor of the next page.
    private func parse(_ response: UpstreamResponse, cursor: String?) throws(UpstreamError) -> UpstreamPage<Item> {
        let body = try read(response.body, contentType: response.header("content-type"))
        try check(body.document)
        try checkItems(in: body.document)
        var next = try nextCursor(body: body.document, response: response, texts: body.texts, cursor: cursor)
        if let hasMorePath = checks.hasMorePath {
            guard let hasMore = hasMorePath.evaluate(body.document)?.boolValue else {
                throw .invalidPage("no true/false at '\(hasMorePath)'")
            }
            if !hasMore {
                next = nil
            } else if next == nil {
                throw .invalidPage("'\(hasMorePath)' says more follow, but there is no next page")
            }
        }
        if let next, next == cursor { throw .invalidPage("the next cursor repeats the current one (a loop)") }
        return UpstreamPage(items: body.items, texts: body.texts, nextCursor: next,
                            total: Self.reportedTotal(in: body.document, style: style, checks: checks))
    }

    /// A body read: the document (its items stood in for), and the page's items and their texts.
    struct ReadBody {
        var document: JSONValue
        var items: [Item]
        var texts: ItemTexts
    }

    /// Reads `body`: parses it (a body that is not JSON throws `.invalidPage` naming its `contentType`) and reads each
    /// item. Whether the items are there is ``checkItems(in:)``'s, after the body's own checks.
    func read(_ body: [UInt8], contentType: String?) throws(UpstreamError) -> ReadBody {
        let path = Self.itemsPath(itemsPath)
        let document: JSONValue
        let texts: ItemTexts
        if parsesBodyWhole {
            // A path read from the body goes into the items: the whole body is built, the items written out.
            do {
                document = try JSONValue.parse(body)
            } catch {
                throw Self.notJSON(contentType)
            }
            texts = ItemTexts(path.evaluateAll(document))
        } else {
            let parsed = body.withUnsafeBufferPointer { JSONValue.parse(buffer: $0, itemsAt: path) }
            guard case .success(let read) = parsed else { throw Self.notJSON(contentType) }
            document = read.document
            texts = ItemTexts(bytes: body, ranges: read.items).compacted()
        }
        return ReadBody(document: document, items: try Self.items(of: texts, reader: reader), texts: texts)
    }

    /// Every item of `texts`, read in order by `reader` (a config table's: its ``RowMaker``, straight into rows). The
    /// first that cannot be read throws `.invalidPage` naming it (from 1). The shared level's pages are read so too.
    static func items(of texts: ItemTexts, reader: ItemReader<Item>) throws(UpstreamError) -> [Item] {
        var items: [Item] = []
        items.reserveCapacity(texts.count)
        for index in 0..<texts.count {
            do {
                items.append(try texts.withText(index, reader.read))
            } catch {
                throw .invalidPage("item \(index + 1) cannot be read: \(error)")
            }
        }
        return items
    }

    /// Throws unless the items' container (the array before the first `[]` of the items path) is in `document`.
    func checkItems(in document: JSONValue) throws(UpstreamError) {
        let path = Self.itemsPath(itemsPath)
        let container = JSONPath(components: Array(path.components.prefix { $0 != .each }))
        guard container.evaluate(document)?.arrayValue != nil else {
            throw .invalidPage("no items array at '\(container)'")
        }
    }

    private static func notJSON(_ contentType: String?) -> UpstreamError {
        .invalidPage("the body is not JSON\(contentType.map { " (\(shortened($0, 60)))" } ?? "")")
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
}
