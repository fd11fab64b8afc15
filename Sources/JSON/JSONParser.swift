/// The strict, iterative JSON parser over a borrowed byte buffer.
///
/// Containers under construction live on explicit stacks instead of the call stack, so nesting depth
/// is bounded only by `maxDepth`, never by thread stack size.
/// - Important: confined to the scope of the buffer it borrows; not shared between threads.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// Byte ranges of the items skipped so far (`parseValue(depth:itemsAt:)`), in the order they ended.
    var skipped: [Range<Int>] = []

    /// One container being filled: which kind, plus its slot on the matching stack.
    enum Open { case array, object }

    /// Parses the one value of the whole buffer (whitespace around it allowed).
    mutating func parseDocument() throws(JSONError) -> JSONValue {
        let value = try parseValue(depth: 0, itemsAt: nil)
        try expectEnd()
        return value
    }

    /// Checks the value just read is the last thing in the buffer (whitespace aside).
    mutating func expectEnd() throws(JSONError) {
        skipWhitespace()
        guard position == bytes.count else { throw error(.trailingData, "end of input") }
    }

    /// Parses one value at `position` (leading whitespace skipped), stopping right after it; `depth`: the containers
    /// it is nested in (its own nesting counts from there against `maxDepth`).
    ///
    /// `itemsAt`: a value whose position matches the whole path (an index component matching any element) is
    /// checked by `skipValue`, not built: its byte range goes to `skipped` and `.int(its index in skipped)` stands in
    /// its place.
    mutating func parseValue(depth: Int, itemsAt path: ArraySlice<JSONPath.Component>?) throws(JSONError) -> JSONValue {
        var open: [Open] = []
        var arrays: [[JSONValue]] = []
        var objects: [[String: JSONValue]] = []
        var keys: [String] = []
        var matched: [Int] = []  // with a path: per open container, how many components its position matches (-1: none)

        while true {
            skipWhitespace()
            var value: JSONValue
            var here = -1
            if let path {
                here = open.isEmpty ? 0 : Self.matchedCount(after: matched[matched.count - 1], in: open[open.count - 1],
                                                            key: keys.last, path)
            }
            if here >= 0, here == path?.count {
                let start = position
                try skipValue(depth: depth + open.count)
                skipped.append(start..<position)
                value = .int(Int64(skipped.count - 1))
            } else {
                guard let first = peek() else { throw error(.unexpectedEnd, "a value") }
                switch first {
                case UInt8(ascii: "{"):
                    if try openContainer(depth: depth + open.count + 1, closer: UInt8(ascii: "}")) {
                        open.append(.object)
                        if path != nil { matched.append(here) }
                        objects.append([:])
                        keys.append(try keyAndColon(building: true))
                        continue
                    }
                    value = .object([:])
                case UInt8(ascii: "["):
                    if try openContainer(depth: depth + open.count + 1, closer: UInt8(ascii: "]")) {
                        open.append(.array)
                        if path != nil { matched.append(here) }
                        arrays.append([])
                        continue
                    }
                    value = .array([])
                default:
                    value = try parseScalar(building: true)
                }
            }

            // Attach the finished value to its container, closing containers as they end.
            while let top = open.last {
                if top == .object {
                    objects[objects.count - 1][keys.removeLast()] = value
                    if try nextMember(closer: UInt8(ascii: "}")) {
                        keys.append(try keyAndColon(building: true))
                        break
                    }
                    value = .object(objects.removeLast())
                } else {
                    arrays[arrays.count - 1].append(value)
                    if try nextMember(closer: UInt8(ascii: "]")) { break }
                    value = .array(arrays.removeLast())
                }
                open.removeLast()
                if path != nil { matched.removeLast() }
            }
            if open.isEmpty { return value }
        }
    }

    /// Checks the value at `position` (leading whitespace skipped; nested `depth` levels deep) exactly as
    /// `parseValue` parses it (the same pieces, the same errors), building nothing.
    mutating func skipValue(depth: Int) throws(JSONError) {
        var objects = NestingBits()  // per open container: whether it is an object
        var level = 0
        while true {
            skipWhitespace()
            guard let first = peek() else { throw error(.unexpectedEnd, "a value") }
            switch first {
            case UInt8(ascii: "{"):
                if try openContainer(depth: depth + level + 1, closer: UInt8(ascii: "}")) {
                    objects[level] = true
                    level += 1
                    _ = try keyAndColon(building: false)
                    continue
                }
            case UInt8(ascii: "["):
                if try openContainer(depth: depth + level + 1, closer: UInt8(ascii: "]")) {
                    objects[level] = false
                    level += 1
                    continue
                }
            default:
                _ = try parseScalar(building: false)
            }
            // The value is done: close the containers it ends.
            while level > 0 {
                if objects[level - 1] {
                    if try nextMember(closer: UInt8(ascii: "}")) {
                        _ = try keyAndColon(building: false)
                        break
                    }
                } else if try nextMember(closer: UInt8(ascii: "]")) {
                    break
                }
                level -= 1
            }
            if level == 0 { return }
        }
    }

    /// At `{` or `[` (nesting `depth`): consumes it and the whitespace after; false when `closer` follows at once (the
    /// empty container, consumed too), true when a member or element follows.
    @inline(__always)
    private mutating func openContainer(depth: Int, closer: UInt8) throws(JSONError) -> Bool {
        try checkDepth(depth)
        position += 1
        skipWhitespace()
        if peek() == closer {
            position += 1
            return false
        }
        return true
    }

    /// After a member or element: true at `,` (consumed; after an object's, the whitespace too), false at `closer`
    /// (consumed); anything else is an error.
    @inline(__always)
    mutating func nextMember(closer: UInt8) throws(JSONError) -> Bool {
        skipWhitespace()
        let next = peek()
        if next == UInt8(ascii: ",") {
            position += 1
            if closer == UInt8(ascii: "}") { skipWhitespace() }
            return true
        } else if next == closer {
            position += 1
            return false
        }
        throw error(next == nil ? .unexpectedEnd : .unexpectedCharacter,
                    closer == UInt8(ascii: "}") ? "',' or '}'" : "',' or ']'")
    }

    /// A string, literal or number at `position` (built when `building`; `.null` stands for it otherwise).
    @inline(__always)
    private mutating func parseScalar(building: Bool) throws(JSONError) -> JSONValue {
        switch bytes[position] {
        case UInt8(ascii: "\""):
            guard building else {
                try skipString()
                return .null
            }
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber(building: building)
        default:
            throw error(.unexpectedCharacter, "a value")
        }
    }

    /// How many components of `path` the position of a member (`key`) or element of a container matches, when the
    /// container's own position matches `parent` of them (-1: none). `.key` matches object members only; an index or
    /// `[]` matches every array element (`evaluateAll` later picks the index).
    private static func matchedCount(after parent: Int, in container: Open, key: String?,
                                     _ path: ArraySlice<JSONPath.Component>) -> Int {
        guard parent >= 0, parent < path.count else { return -1 }
        switch (path[path.startIndex + parent], container) {
        case (.key(let name), .object): return name == key ? parent + 1 : -1
        case (.index, .array), (.each, .array): return parent + 1
        default: return -1
        }
    }

    // MARK: Small pieces

    func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    func error(_ kind: JSONError.Kind, _ expected: String) -> JSONError {
        JSONError(kind, at: position, expected: expected)
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    func checkDepth(_ depth: Int) throws(JSONError) {
        if depth > maxDepth { throw error(.tooDeep, "nesting of at most \(maxDepth) levels") }
    }

    /// Reads a member's key and the colon after it; the key is returned when `building`, else checked only ("").
    @inline(__always)
    mutating func keyAndColon(building: Bool) throws(JSONError) -> String {
        try expectKeyQuote()
        let key: String
        if building { key = try parseString() } else { try skipString(); key = "" }
        try expectColon()
        return key
    }

    /// Checks a key's opening quote is at `position`.
    func expectKeyQuote() throws(JSONError) {
        guard peek() == UInt8(ascii: "\"") else {
            throw error(peek() == nil ? .unexpectedEnd : .unexpectedCharacter, "a string key")
        }
    }

    /// Skips whitespace and the colon after a key.
    mutating func expectColon() throws(JSONError) {
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else {
            throw error(peek() == nil ? .unexpectedEnd : .unexpectedCharacter, "':'")
        }
        position += 1
    }

    private mutating func expectLiteral(_ word: StaticString) throws(JSONError) {
        let count = word.utf8CodeUnitCount
        let start = word.utf8Start
        for i in 0..<count {
            guard position < bytes.count else { throw error(.unexpectedEnd, "\(word)") }
            guard bytes[position] == start[i] else { throw error(.unexpectedCharacter, "\(word)") }
            position += 1
        }
    }
}
