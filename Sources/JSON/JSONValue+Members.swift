extension JSONValue {
    /// The values of the members named `names` (index-aligned) of the object that is the one JSON value in `buffer`
    /// (whitespace around it allowed); duplicate keys: the last wins; nil where absent; all nil when the value is not
    /// an object. Members not named are checked, not built.
    ///
    /// Accepts and rejects exactly what `parse(buffer:maxDepth:)` does, with the same errors; `maxDepth` counts from
    /// the value in `buffer` (the object is depth 1).
    /// Thread-safe: pure function.
    public static func members(named names: JSONMemberNames, in buffer: UnsafeBufferPointer<UInt8>,
                               maxDepth: Int = 64) throws(JSONError) -> [JSONValue?] {
        var parser = JSONParser(buffer, maxDepth: min(maxDepth, depthCap))
        let values = try parser.parseMembers(names)
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
    /// The named members of the object at `position` (all nil when the value there is not an object), checking the
    /// rest; the same steps and errors as `parseValue` on an object.
    mutating func parseMembers(_ names: JSONMemberNames) throws(JSONError) -> [JSONValue?] {
        var values = [JSONValue?](repeating: nil, count: names.names.count)
        skipWhitespace()
        guard peek() == UInt8(ascii: "{") else {
            try skipValue(depth: 0)
            return values
        }
        try checkDepth(1)
        position += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return values
        }
        while true {
            if let wanted = try memberKeyAndColon(names) {
                let value = try parseValue(depth: 1, itemsAt: nil)
                for slot in names.slots[wanted] { values[slot] = value }
            } else {
                try skipValue(depth: 1)
            }
            skipWhitespace()
            let next = peek()
            if next == UInt8(ascii: ",") {
                position += 1
                skipWhitespace()
            } else if next == UInt8(ascii: "}") {
                position += 1
                return values
            } else {
                throw error(next == nil ? .unexpectedEnd : .unexpectedCharacter, "',' or '}'")
            }
        }
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
