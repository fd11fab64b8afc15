/// Member names compiled once for `JSONValue.members(named:in:maxDepth:)`: a lookup that compares a member's raw key
/// bytes, with no `String` made for a member that is not wanted when its key has no escapes.
///
/// Thread-safe: an immutable value type.
public struct JSONMemberNames: Sendable {
    /// The names, in slot order (a name listed twice fills both slots).
    public var names: [String] { allNames }

    private let allNames: [String]
    /// The distinct names' UTF-8 bytes.
    private let distinct: [[UInt8]]
    /// For each distinct name, the slots (indices into `names`) it fills.
    let slots: [[Int]]

    /// Compiles `names`.
    public init(_ names: [String]) {
        allNames = names
        var distinct: [[UInt8]] = []
        var slots: [[Int]] = []
        for (slot, name) in names.enumerated() {
            let bytes = Array(name.utf8)
            if let index = distinct.firstIndex(of: bytes) {
                slots[index].append(slot)
            } else {
                distinct.append(bytes)
                slots.append([slot])
            }
        }
        self.distinct = distinct
        self.slots = slots
    }

    /// The index (into `slots`) of the distinct name whose UTF-8 is `key`; nil if none.
    func index(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        for (index, name) in distinct.enumerated() where name.count == key.count {
            if name.withUnsafeBufferPointer({ $0.elementsEqual(key) }) { return index }
        }
        return nil
    }
}
