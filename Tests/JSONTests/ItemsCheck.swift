@testable import JSON

/// The differential check of item reading: `parse(buffer:maxDepth:itemsAt:)`, `members(named:in:)` and
/// `value(at:in:)` against the full `parse` of the same bytes. Each problem found is a line of text.
enum ItemsCheck {
    /// What differs between reading `bytes` with its items at `path` left as bytes and parsing it whole.
    static func problems(_ bytes: [UInt8], path: JSONPath, names: [String], maxDepth: Int = 64) -> [String] {
        var problems: [String] = []
        bytes.withUnsafeBufferPointer { buffer in
            let full = JSONValue.parse(buffer: buffer, maxDepth: maxDepth)
            let read = JSONValue.parse(buffer: buffer, maxDepth: maxDepth, itemsAt: path)
            let members = Result { () throws(JSONError) in
                try JSONValue.members(named: JSONMemberNames(names), in: buffer, maxDepth: maxDepth)
            }
            let value = Result { () throws(JSONError) in try JSONValue.value(at: path, in: buffer, maxDepth: maxDepth) }
            // Members read as far as these paths go: each evaluates on the partial object as on the whole value.
            let partialPaths = [path] + Self.partialPaths
            let partialNames = JSONMemberNames(paths: partialPaths)
            let partial = Result { () throws(JSONError) in
                try JSONValue.members(named: partialNames, in: buffer, maxDepth: maxDepth)
            }
            switch full {
            case .failure(let error):
                for (name, other) in [("parse(itemsAt:)", failure(read)), ("members", failure(members)),
                                      ("value(at:)", failure(value)), ("members(paths)", failure(partial))] where other != error {
                    problems.append("\(name) fails with \(String(describing: other)), the full parse with \(error)")
                }
            case .success(let whole):
                switch read {
                case .failure(let error):
                    problems.append("parse(itemsAt:) rejects what the full parse accepts: \(error)")
                case .success(let document):
                    let expected = path.evaluateAll(whole)
                    let got = document.items.map { range in
                        JSONValue.parse(buffer: UnsafeBufferPointer(rebasing: buffer[range]), maxDepth: maxDepth)
                    }
                    if got.map({ try? $0.get() }) != expected.map(Optional.some) {
                        problems.append("items \(document.items) read \(got), evaluateAll: \(expected)")
                    }
                    for range in document.items where isWhitespace(buffer[range.lowerBound])
                        || isWhitespace(buffer[range.upperBound - 1]) {
                        problems.append("range \(range) holds whitespace")
                    }
                    if mask(document.document, path.components[...]) != mask(whole, path.components[...]) {
                        problems.append("document \(document.document) differs from \(whole) outside the items")
                    }
                }
                let object = whole.objectValue
                if failure(members) != nil || (try? members.get()) != names.map({ object?[$0] }) {
                    problems.append("members \(members), expected \(names.map { object?[$0] })")
                }
                if case .success(let members) = partial {
                    let object = JSONValue.object(Dictionary(zip(partialNames.names, members).compactMap { name, value in
                        value.map { (name, $0) }
                    }, uniquingKeysWith: { $1 }))
                    for path in partialPaths where path.components.first.map({ if case .key = $0 { true } else { false } }) == true
                        && path.evaluate(object) != path.evaluate(whole) {
                        problems.append("\(path) on the partial members \(object) differs")
                    }
                } else {
                    problems.append("members(paths) rejects what the full parse accepts")
                }
                if failure(value) != nil || (try? value.get()) != path.evaluate(whole) {
                    problems.append("value(at:) \(value), expected \(String(describing: path.evaluate(whole)))")
                }
            }
        }
        return problems
    }

    /// Paths read as partial members beside the path under test: nested keys, a key ending early, indexes.
    static let partialPaths = ["a.b", "a.b.c", "b.a", "b", "items.a.b", "items.b", "\u{e9}.a", "c.a[0]"].map {
        try! JSONPath($0)
    }

    /// `value` with every value at a position `rest` matches (an index matching any element) replaced by one marker.
    static func mask(_ value: JSONValue, _ rest: ArraySlice<JSONPath.Component>) -> JSONValue {
        guard let first = rest.first else { return .string("<item>") }
        switch (first, value) {
        case (.key(let key), .object(var members)):
            if let member = members[key] { members[key] = mask(member, rest.dropFirst()) }
            return .object(members)
        case (.index, .array(let elements)), (.each, .array(let elements)):
            return .array(elements.map { mask($0, rest.dropFirst()) })
        default:
            return value
        }
    }

    private static func failure<T>(_ result: Result<T, JSONError>) -> JSONError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
