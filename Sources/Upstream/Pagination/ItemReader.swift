import JSON
import Tables

/// How a ``PageSource`` reads each item of its pages from the item's JSON text, while the page's body is read: into
/// a JSON value (``json``: the JSON proxy's sources, tools and tests), or straight into what a table shows (a config
/// table's rows, made by its compiled paths; the item is never built as a JSON value).
///
/// A plain value: thread-safe; `read` may be called on any thread, for many items at once.
public struct ItemReader<Item: Sendable>: Sendable {
    /// Reads one item from its JSON text (one value, checked by the page's parse).
    public let read: @Sendable (UnsafeBufferPointer<UInt8>) throws(JSONError) -> Item

    /// A reader calling `read` for each item.
    public init(_ read: @escaping @Sendable (UnsafeBufferPointer<UInt8>) throws(JSONError) -> Item) {
        self.read = read
    }

    /// Every item of `texts`, read in order. The first that cannot be read throws its index (from 0) and error.
    func items(of texts: ItemTexts) throws(ItemReadFailure) -> [Item] {
        var items: [Item] = []
        items.reserveCapacity(texts.count)
        for index in 0..<texts.count {
            do {
                items.append(try texts.withText(index, read))
            } catch {
                throw ItemReadFailure(index: index, error: error)
            }
        }
        return items
    }
}

/// An item a reader could not read: which one (from 0), and why.
struct ItemReadFailure: Error {
    let index: Int
    let error: JSONError
}

extension ItemReader where Item == JSONValue {
    /// Each item as its JSON value.
    public static var json: ItemReader<JSONValue> {
        ItemReader { (text) throws(JSONError) in try JSONValue.parse(buffer: text).get() }
    }
}

extension ItemReader where Item == Row {
    /// Each item straight into its row by `spec`'s JSON paths, compiled once here (``RowMaker/row(json:maxDepth:)``:
    /// only the members the paths start with are built): a config table's reader, called by ``items(of:)`` above
    /// as the page's body is read.
    public static func rows(_ spec: TableSpec) -> ItemReader<Row> {
        let maker = RowMaker(spec: spec)
        return ItemReader { (text) throws(JSONError) in try maker.row(json: text) }
    }
}
