import JSON
import Tables

/// How a ``PageSource`` reads each item of its pages from the item's JSON text, while the page's body is read: into
/// a JSON value (``json``: the JSON proxy's sources, tools and tests), or straight into what a table shows (a config
/// table's rows: ``rows(_:)`` is its ``RowMaker``'s own `row(json:)`; the item is never built as a JSON value).
/// A plain holder of that function: the page's read calls it for each item (``PageSource/items(of:reader:)``).
///
/// A plain value: thread-safe; `read` may be called on any thread, for many items at once.
public struct ItemReader<Item: Sendable>: Sendable {
    /// Reads one item from its JSON text (one value, checked by the page's parse).
    public let read: @Sendable (UnsafeBufferPointer<UInt8>) throws(JSONError) -> Item

    /// A reader calling `read` for each item.
    public init(_ read: @escaping @Sendable (UnsafeBufferPointer<UInt8>) throws(JSONError) -> Item) {
        self.read = read
    }
}

extension ItemReader where Item == JSONValue {
    /// Each item as its JSON value.
    public static var json: ItemReader<JSONValue> {
        ItemReader { (text) throws(JSONError) in try JSONValue.parse(buffer: text).get() }
    }
}

extension ItemReader where Item == Row {
    /// Each item straight into its row by `spec`'s JSON paths, compiled once here: the reader is the maker's own
    /// ``RowMaker/row(json:)`` (only the members the paths start with are built), which the page's read calls.
    public static func rows(_ spec: TableSpec) -> ItemReader<Row> {
        ItemReader(RowMaker(spec: spec).row(json:))
    }
}
