// INTERIM (deleted when wt-jsonread merges): the naive form of the helper's API.
extension JSONValue {
    public static func value(at path: JSONPath, in buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int = 64) throws(JSONError) -> JSONValue? {
        path.evaluate(try parse(buffer: buffer, maxDepth: maxDepth).get())
    }
}
public let interimWhole = true
public struct JSONItemsDocument: Sendable {
    public var document: JSONValue
    public var items: [Range<Int>]
}
extension JSONValue {
    public static func parse(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int = 64, itemsAt itemPath: JSONPath) -> Result<JSONItemsDocument, JSONError> {
        fatalError("interim")
    }
}
