/// Member names compiled once for `JSONValue.members(named:in:maxDepth:)`: a lookup that compares a member's raw key
/// bytes, with no `String` made for a member that is not wanted when its key has no escapes.
///
/// Made from paths (`init(paths:)`), a member every path through which goes on with a key is read the same way in
/// turn: only the members those paths name are built inside it (a partial object), enough for each path to evaluate
/// exactly as on the whole member.
///
/// Thread-safe: an immutable value type.
public struct JSONMemberNames: Sendable {
    /// The names, in slot order (a name listed twice fills both slots).
    public var names: [String] { allNames }

    private let allNames: [String]
    /// The distinct names (distinct as Swift strings: by canonical equivalence, as the full parse's object keys).
    private let distinctNames: [String]
    /// The distinct names' UTF-8 bytes.
    private let distinct: [[UInt8]]
    /// Whether a name has a byte outside ASCII (then a key with other bytes may still be the same string).
    private let hasNonASCIIName: Bool
    /// For each distinct name, the slots (indices into `names`) it fills.
    let slots: [[Int]]
    /// For each distinct name: nil to build the member whole; else the names to read inside it when it is an object
    /// (when it is not, it reads as absent: a key evaluates to nil on it either way).
    let within: [JSONMemberNames?]

    /// Compiles `names`: each named member is built whole.
    public init(_ names: [String]) {
        self.init(names, within: nil)
    }

    /// Compiles the first keys of `paths` (those starting with a key, in order of first appearance) as `names`; a
    /// member whose paths all go on with a key (none ends at it, or goes on with an index or `[]`) is read as a
    /// partial object holding only what they name, recursively.
    public init(paths: [JSONPath]) {
        var names: [String] = []
        var rests: [[JSONPath]] = []
        var whole: [Bool] = []
        for path in paths {
            guard case .key(let name)? = path.components.first else { continue }
            let index = names.firstIndex(of: name) ?? names.count
            if index == names.count {
                names.append(name)
                rests.append([])
                whole.append(false)
            }
            let rest = path.components.dropFirst()
            if case .key? = rest.first {
                rests[index].append(JSONPath(components: Array(rest)))
            } else {
                whole[index] = true
            }
        }
        self.init(names, within: zip(rests, whole).map { rest, whole in whole ? nil : JSONMemberNames(paths: rest) })
    }

    private init(_ names: [String], within nested: [JSONMemberNames?]?) {
        allNames = names
        var distinctNames: [String] = []
        var slots: [[Int]] = []
        for (slot, name) in names.enumerated() {
            if let index = distinctNames.firstIndex(of: name) {
                slots[index].append(slot)
            } else {
                distinctNames.append(name)
                slots.append([slot])
            }
        }
        self.distinctNames = distinctNames
        distinct = distinctNames.map { Array($0.utf8) }
        hasNonASCIIName = names.contains { !$0.utf8.allSatisfy { $0 < 0x80 } }
        self.slots = slots
        within = nested ?? Array(repeating: nil, count: distinct.count)
    }

    /// The index (into `slots`) of the distinct name that the key whose (valid) UTF-8 is `key` equals; nil if none.
    /// Equal as Swift strings, as the full parse's object keys are: bytes first, and when either side is not ASCII,
    /// canonical equivalence (NFC and NFD "é" are one key; so are U+212A KELVIN SIGN and "K").
    func index(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        for (index, name) in distinct.enumerated() where name.count == key.count {
            if name.withUnsafeBufferPointer({ $0.elementsEqual(key) }) { return index }
        }
        guard hasNonASCIIName || key.contains(where: { $0 >= 0x80 }) else { return nil }
        return distinctNames.firstIndex(of: String(decoding: key, as: UTF8.self))
    }
}
