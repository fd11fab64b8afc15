/// Splits path text into components; see `JSONPath` for the grammar.
/// - Important: a throwaway value; not shared between threads.
struct JSONPathParser {
    private let characters: [Character]
    private var position = 0

    init(_ string: String) {
        characters = Array(string)
    }

    static func isNameCharacter(_ c: Character) -> Bool {
        !(c == "." || c == "[" || c == "]" || c == "\"" || c == "'" || c.isWhitespace)
    }

    static func isPlainName(_ s: String) -> Bool {
        !s.isEmpty && s != "$" && s.allSatisfy(isNameCharacter)
    }

    mutating func parse() throws(JSONError) -> [JSONPath.Component] {
        if characters == ["$"] { return [] }
        if characters.first == "$", characters.count > 1, characters[1] == "." || characters[1] == "[" {
            position = characters[1] == "." ? 2 : 1
            if position == 2 && position == characters.count { throw fail("a name after '$.'") }
        }
        var components: [JSONPath.Component] = []
        var needsSeparator = false
        while position < characters.count {
            let c = characters[position]
            if c == "[" {
                components.append(try parseBracket())
            } else if c == "." {
                guard needsSeparator else { throw fail("a name, '[' or the end") }
                position += 1
                components.append(.key(try parseName()))
            } else {
                guard !needsSeparator else { throw fail("'.' or '['") }
                components.append(.key(try parseName()))
            }
            needsSeparator = true
        }
        return components
    }

    private func fail(_ expected: String) -> JSONError {
        JSONError(.invalidPath, at: position, expected: expected)
    }

    private mutating func parseName() throws(JSONError) -> String {
        let start = position
        while position < characters.count, Self.isNameCharacter(characters[position]) { position += 1 }
        guard position > start else { throw fail("a name") }
        return String(characters[start..<position])
    }

    private mutating func parseBracket() throws(JSONError) -> JSONPath.Component {
        position += 1  // "["
        guard position < characters.count else { throw fail("']', an index or a quoted key") }
        let c = characters[position]
        let component: JSONPath.Component
        if c == "]" {
            component = .each
        } else if c == "\"" || c == "'" {
            component = .key(try parseQuoted(c))
        } else {
            component = .index(try parseIndex())
        }
        guard position < characters.count, characters[position] == "]" else { throw fail("']'") }
        position += 1
        return component
    }

    private mutating func parseQuoted(_ quote: Character) throws(JSONError) -> String {
        position += 1
        var key = ""
        while position < characters.count {
            let c = characters[position]
            if c == quote {
                position += 1
                return key
            }
            if c == "\\" {
                position += 1
                guard position < characters.count else { break }
                let escaped = characters[position]
                guard escaped == "\\" || escaped == "\"" || escaped == "'" else {
                    throw fail("one of \\ \" ' after '\\'")
                }
                key.append(escaped)
            } else {
                key.append(c)
            }
            position += 1
        }
        throw fail("a closing \(quote)")
    }

    private mutating func parseIndex() throws(JSONError) -> Int {
        let start = position
        if characters[position] == "-" { position += 1 }
        while position < characters.count, let d = characters[position].wholeNumberValue,
              characters[position].isASCII, d >= 0 {
            position += 1
        }
        guard let index = Int(String(characters[start..<position])) else {
            position = start
            throw fail("an integer index")
        }
        return index
    }
}
