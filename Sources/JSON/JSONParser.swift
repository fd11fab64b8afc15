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

    /// Byte ranges of the values skipped so far (`parseValue(depth:itemsAt:)`), in the order they ended.
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

    /// Checks the value at `position` (nested `depth` levels deep) as `parseValue` would, building nothing.
    mutating func skipValue(depth: Int) throws(JSONError) {
        _ = try parseValue(depth: depth, itemsAt: [][...])
        skipped.removeLast()
    }

    /// Parses one value at `position` (leading whitespace skipped), stopping right after it; `depth`: the containers
    /// it is nested in (its own nesting counts from there against `maxDepth`).
    ///
    /// `itemsAt`: a value whose position matches the whole path (an index component matching any element) is
    /// checked, not built: its byte range goes to `skipped` and `.int(its index in skipped)` stands in its place.
    /// Checking and building share every piece and every error, so both accept exactly the same bytes.
    mutating func parseValue(depth: Int, itemsAt path: ArraySlice<JSONPath.Component>?) throws(JSONError) -> JSONValue {
        var open: [Open] = []
        var arrays: [[JSONValue]] = []
        var objects: [[String: JSONValue]] = []
        var keys: [String] = []
        var matched: [Int] = []  // with a path: per built container, how many components its position matches (-1: none)
        var skipFrom: Int? = nil  // while skipping: open.count where the skipped value started
        var skipStart = 0

        while true {
            skipWhitespace()
            var here = -1
            if skipFrom == nil, let path {
                here = open.isEmpty ? 0 : Self.matchedCount(after: matched[matched.count - 1], in: open[open.count - 1],
                                                            key: keys.last, path)
                if here == path.count {
                    skipFrom = open.count
                    skipStart = position
                }
            }
            let skipping = skipFrom != nil
            var value: JSONValue
            guard position < bytes.count else { throw error(.unexpectedEnd, "a value") }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                try checkDepth(depth + open.count + 1)
                position += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "}") {
                    position += 1
                    value = .object([:])
                } else {
                    open.append(.object)
                    if skipping {
                        _ = try keyAndColon(building: false)
                    } else {
                        if path != nil { matched.append(here) }
                        objects.append([:])
                        keys.append(try keyAndColon(building: true))
                    }
                    continue
                }
            case UInt8(ascii: "["):
                try checkDepth(depth + open.count + 1)
                position += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "]") {
                    position += 1
                    value = .array([])
                } else {
                    open.append(.array)
                    if !skipping {
                        if path != nil { matched.append(here) }
                        arrays.append([])
                    }
                    continue
                }
            case UInt8(ascii: "\""):
                if skipping {
                    try skipString()
                    value = .null
                } else {
                    value = .string(try parseString())
                }
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = try parseNumber()
            default:
                throw error(.unexpectedCharacter, "a value")
            }

            // Attach the finished value to its container, closing containers as they end.
            while true {
                if let from = skipFrom, open.count == from {
                    skipped.append(skipStart..<position)
                    value = .int(Int64(skipped.count - 1))
                    skipFrom = nil
                }
                guard let top = open.last else { return value }
                let skipping = skipFrom != nil
                skipWhitespace()
                let next = peek()
                if top == .object {
                    if !skipping { objects[objects.count - 1][keys.removeLast()] = value }
                    if next == UInt8(ascii: ",") {
                        position += 1
                        skipWhitespace()
                        if skipping { _ = try keyAndColon(building: false) } else { keys.append(try keyAndColon(building: true)) }
                        break
                    } else if next == UInt8(ascii: "}") {
                        position += 1
                        open.removeLast()
                        if !skipping {
                            if path != nil { matched.removeLast() }
                            value = .object(objects.removeLast())
                        }
                    } else {
                        throw error(next == nil ? .unexpectedEnd : .unexpectedCharacter, "',' or '}'")
                    }
                } else {
                    if !skipping { arrays[arrays.count - 1].append(value) }
                    if next == UInt8(ascii: ",") {
                        position += 1
                        break
                    } else if next == UInt8(ascii: "]") {
                        position += 1
                        open.removeLast()
                        if !skipping {
                            if path != nil { matched.removeLast() }
                            value = .array(arrays.removeLast())
                        }
                    } else {
                        throw error(next == nil ? .unexpectedEnd : .unexpectedCharacter, "',' or ']'")
                    }
                }
            }
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
