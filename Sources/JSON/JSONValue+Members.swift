extension JSONValue {
    /// The values of the members named `names` (index-aligned) of the object that is the one JSON value in `buffer`
    /// (whitespace around it allowed); duplicate keys: the last wins; nil where absent; all nil when the value is not
    /// an object. Members not named are checked, not built. With names made by `JSONMemberNames(paths:)`, a member
    /// whose paths all go on with a key is a partial object (or nil when it is not an object): each of those paths
    /// evaluates on it as on the whole member.
    ///
    /// Accepts and rejects exactly what `parse(buffer:maxDepth:)` does, with the same errors; `maxDepth` counts from
    /// the value in `buffer` (the object is depth 1).
    /// Thread-safe: pure function.
    public static func members(named names: JSONMemberNames, in buffer: UnsafeBufferPointer<UInt8>,
                               maxDepth: Int = 64) throws(JSONError) -> [JSONValue?] {
        var parser = JSONParser(buffer, maxDepth: min(maxDepth, depthCap))
        let values = try parser.parseMembers(names, depth: 0) ?? Array(repeating: nil, count: names.names.count)
        try parser.expectEnd()
        return values
    }

    /// The value at `path` in the one JSON value in `buffer` (as `path.evaluate(parse(buffer))`), building only the
    /// member the path's first key goes through (the whole value when the path is the root or starts with an index
    /// or `[]`). Same acceptance and errors as `parse(buffer:maxDepth:)`.
    /// Thread-safe: pure function.
    public static func value(at path: JSONPath, in buffer: UnsafeBufferPointer<UInt8>,
                             maxDepth: Int = 64) throws(JSONError) -> JSONValue? {
        guard case .key(let name)? = path.components.first else {
            return path.evaluate(try parse(buffer: buffer, maxDepth: maxDepth).get())
        }
        guard let member = try members(named: JSONMemberNames([name]), in: buffer, maxDepth: maxDepth)[0] else {
            return nil
        }
        return JSONPath(components: Array(path.components.dropFirst())).evaluate(member)
    }
}

extension JSONParser {
    /// The named members of the object at `position` (nested `depth` levels deep), checking the rest, or nil (the
    /// value checked) when the value there is not an object; the same steps and errors as `parseValue`.
    mutating func parseMembers(_ names: JSONMemberNames, depth: Int) throws(JSONError) -> [JSONValue?]? {
        skipWhitespace()
        guard peek() == UInt8(ascii: "{") else {
            try skipValue(depth: depth)
            return nil
        }
        var values = [JSONValue?](repeating: nil, count: names.names.count)
        try checkDepth(depth + 1)
        position += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return values
        }
        repeat {
            if let wanted = try memberKeyAndColon(names) {
                let value: JSONValue?
                if let within = names.within[wanted] {
                    value = try parseMembers(within, depth: depth + 1).map { members in
                        .object(Dictionary(zip(within.names, members).compactMap { name, value in
                            value.map { (name, $0) }
                        }, uniquingKeysWith: { $1 }))
                    }
                } else {
                    value = try parseValue(depth: depth + 1, itemsAt: nil)
                }
                for slot in names.slots[wanted] { values[slot] = value }
            } else {
                try skipValue(depth: depth + 1)
            }
        } while try nextMember(closer: UInt8(ascii: "}"))
        return values
    }

    /// Reads a member's key and colon: which of `names` it is (an index into `names.slots`), nil if none. A key
    /// without escapes is compared as raw bytes; one with escapes is decoded first.
    private mutating func memberKeyAndColon(_ names: JSONMemberNames) throws(JSONError) -> Int? {
        try expectKeyQuote()
        let start = position
        try skipString()
        let raw = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(position - 1)])
        let index: Int?
        if raw.contains(UInt8(ascii: "\\")) {
            let end = position
            position = start
            var key = try parseString()
            position = end
            index = key.withUTF8 { names.index(of: $0) }
        } else {
            index = names.index(of: raw)
        }
        try expectColon()
        return index
    }
}
