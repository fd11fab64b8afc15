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

    /// One container being filled: which kind, plus its slot on the matching stack.
    private enum Open { case array, object }

    mutating func parseDocument() throws(JSONError) -> JSONValue {
        var open: [Open] = []
        var arrays: [[JSONValue]] = []
        var objects: [[String: JSONValue]] = []
        var keys: [String] = []

        while true {
            skipWhitespace()
            var value: JSONValue
            guard position < bytes.count else { throw error(.unexpectedEnd, "a value") }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                try checkDepth(open.count + 1)
                position += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "}") {
                    position += 1
                    value = .object([:])
                } else {
                    open.append(.object)
                    objects.append([:])
                    keys.append(try parseKeyAndColon())
                    continue
                }
            case UInt8(ascii: "["):
                try checkDepth(open.count + 1)
                position += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "]") {
                    position += 1
                    value = .array([])
                } else {
                    open.append(.array)
                    arrays.append([])
                    continue
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString())
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
                guard let top = open.last else {
                    skipWhitespace()
                    guard position == bytes.count else { throw error(.trailingData, "end of input") }
                    return value
                }
                skipWhitespace()
                let next = peek()
                if top == .object {
                    objects[objects.count - 1][keys.removeLast()] = value
                    if next == UInt8(ascii: ",") {
                        position += 1
                        skipWhitespace()
                        keys.append(try parseKeyAndColon())
                        break
                    } else if next == UInt8(ascii: "}") {
                        position += 1
                        open.removeLast()
                        value = .object(objects.removeLast())
                    } else {
                        throw error(next == nil ? .unexpectedEnd : .unexpectedCharacter, "',' or '}'")
                    }
                } else {
                    arrays[arrays.count - 1].append(value)
                    if next == UInt8(ascii: ",") {
                        position += 1
                        break
                    } else if next == UInt8(ascii: "]") {
                        position += 1
                        open.removeLast()
                        value = .array(arrays.removeLast())
                    } else {
                        throw error(next == nil ? .unexpectedEnd : .unexpectedCharacter, "',' or ']'")
                    }
                }
            }
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

    private func checkDepth(_ depth: Int) throws(JSONError) {
        if depth > maxDepth { throw error(.tooDeep, "nesting of at most \(maxDepth) levels") }
    }

    private mutating func parseKeyAndColon() throws(JSONError) -> String {
        guard peek() == UInt8(ascii: "\"") else {
            throw error(peek() == nil ? .unexpectedEnd : .unexpectedCharacter, "a string key")
        }
        let key = try parseString()
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else {
            throw error(peek() == nil ? .unexpectedEnd : .unexpectedCharacter, "':'")
        }
        position += 1
        return key
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
