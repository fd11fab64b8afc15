/// A JSON document parsed with the values at an items path left unbuilt: the document (those values replaced by
/// placeholders) and each item's byte range in the buffer.
///
/// Made by `JSONValue.parse(buffer:maxDepth:itemsAt:)`; read an item with `JSONValue.members(named:in:maxDepth:)`,
/// `JSONValue.value(at:in:maxDepth:)` or `JSONValue.parse(buffer:maxDepth:)` over its range. An item lies inside
/// exactly `itemPath.components.count` containers, so reading it with `maxDepth - itemPath.components.count` keeps
/// the whole parse's limit (the parse has already checked it holds).
/// Thread-safe: an immutable value type.
public struct JSONItemsDocument: Sendable {
    /// The document, each item replaced by a placeholder: paths that do not go into an item evaluate as on the whole
    /// document. A placeholder is some `.int`; read an item through `items`, never through its placeholder.
    public var document: JSONValue
    /// The byte range (in the parsed buffer) of each value `itemPath.evaluateAll(wholeDocument)` returns, in that
    /// order (whitespace around a value excluded).
    public var items: [Range<Int>]

    /// A document and its items' ranges.
    public init(document: JSONValue, items: [Range<Int>]) {
        self.document = document
        self.items = items
    }
}

extension JSONValue {
    /// Parses like `parse(buffer:maxDepth:)` (same acceptance, same errors: a buffer it accepts this accepts, and the
    /// reverse), but the values `itemPath` matches are checked, not built.
    ///
    /// Every value whose position the path matches (a `.key` matching an object member of that name, an index or
    /// `[]` any array element) is checked as the full parse checks it (strings, numbers, UTF-8, nesting counted from
    /// its depth in the document) and recorded; `itemPath.evaluateAll` over the placeholder document then picks them
    /// in its order, so duplicate keys (the last wins), `[N]`, `[-1]` and `[]` select exactly as on the whole document.
    /// Thread-safe: pure function.
    public static func parse(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int = 64,
                             itemsAt itemPath: JSONPath) -> Result<JSONItemsDocument, JSONError> {
        var parser = JSONParser(buffer, maxDepth: min(maxDepth, depthCap))
        do throws(JSONError) {
            let document = try parser.parseValue(depth: 0, itemsAt: itemPath.components[...])
            try parser.expectEnd()
            var items: [Range<Int>] = []
            for placeholder in itemPath.evaluateAll(document) {
                // Every value the path reaches was skipped, so each is a placeholder.
                guard case .int(let index) = placeholder else { continue }
                items.append(parser.skipped[Int(index)])
            }
            return .success(JSONItemsDocument(document: document, items: items))
        } catch {
            return .failure(error)
        }
    }
}
