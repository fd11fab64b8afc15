// INTERIM (deleted when wt-jsonread merges).
import JSON
extension RowMaker {
    public func row(json bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = 64) throws(JSONError) -> Row {
        row(try JSONValue.parse(buffer: bytes, maxDepth: maxDepth).get())
    }
}
