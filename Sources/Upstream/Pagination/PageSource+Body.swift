import JSON

/// A page's body read in one pass: the document's own fields (checks, cursors, counts) parsed, each item left as its
/// JSON text and read by the source's ``ItemReader`` (a config table's straight into its row). Used by the fetch in
/// PageSource+Fetch.swift.
extension PageSource {
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
        do {
            return ReadBody(document: document, items: try reader.items(of: texts), texts: texts)
        } catch {
            throw .invalidPage("item \(error.index + 1) cannot be read: \(error.error)")
        }
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

    /// Where the items are, as a path of every match: `data` (an array) is `data[]`; `edges[].node` as it is.
    static func itemsPath(_ path: JSONPath) -> JSONPath {
        path.components.contains(.each) ? path : JSONPath(components: path.components + [.each])
    }

    /// The paths a page's body is read at besides its items: the checks, and the style's cursor and counts (the
    /// keyset key is read from the last item's text).
    static func bodyPaths(style: PaginationStyle, checks: PageChecks) -> [JSONPath] {
        var paths = [checks.okPath, checks.errorPath, checks.hasMorePath, checks.totalPath].compactMap { $0 }
        switch style {
        case .cursor(_, let path), .cursorInBody(_, let path), .nextURL(let path): paths.append(path)
        case .offset(_, let end), .pageNumber(_, _, let end):
            switch end {
            case .total(let path), .totalPages(let path): paths.append(path)
            case .shortPage, .emptyPage: break
            }
        case .linkHeader, .keyset: break
        }
        return paths
    }

    /// The list's total as `document` reports it: at ``PageChecks/totalPath``, else at an offset or page-number
    /// style's `total` end; nil when neither is set or the value is not a whole number from 0 up.
    static func reportedTotal(in document: JSONValue, style: PaginationStyle, checks: PageChecks) -> Int? {
        var path = checks.totalPath
        if path == nil, case .offset(_, .total(let end)) = style { path = end }
        if path == nil, case .pageNumber(_, _, .total(let end)) = style { path = end }
        guard let path, let total = path.evaluate(document)?.intValue, total >= 0 else { return nil }
        return Int(total)
    }

    /// Whether the value at `path` may be or hold an item at `itemsPath`, or lie inside one (component by component,
    /// an index or `[]` meeting any index or `[]`): then it is read from the whole body, not from the items' stand-ins
    /// (an `errorPath` of `data` over items at `data[]` shows the items in its message).
    static func enters(_ itemsPath: JSONPath, _ path: JSONPath) -> Bool {
        let items = Self.itemsPath(itemsPath).components
        return zip(items, path.components).allSatisfy { item, step in
            switch (item, step) {
            case (.key(let a), .key(let b)): a == b
            case (.key, _), (_, .key): false
            default: true
            }
        }
    }
}
