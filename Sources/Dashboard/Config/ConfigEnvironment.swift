import JSON

/// Puts environment variables into config strings: `${API_TOKEN}` becomes the variable's value, so secrets
/// stay out of the file. `$$` is a literal `$`. A missing variable is an error naming the variable (never a
/// value).
///
/// Pure function of its inputs: thread-safe.
enum ConfigEnvironment {
    static func substitute(_ text: String, environment: [String: String], at keyPath: String,
                           file: String) throws(ConfigError) -> String {
        guard text.contains("$") else { return text }
        var out = ""
        try scan(text, literal: { out += $0 }, placeholder: { (name: Substring) throws(ConfigError) in
            guard isName(String(name)) else {
                throw ConfigError(file: file, keyPath: keyPath, expected: "${NAME} with a variable name of letters, digits and _")
            }
            guard let value = environment[String(name)] else {
                throw ConfigError(file: file, keyPath: keyPath, expected: "environment variable \(name) to be set")
            }
            out += value
        }, stray: ConfigError(file: file, keyPath: keyPath, expected: "${NAME} or $$ after '$'"))
        return out
    }

    /// Reads `text` as literal text (`$$` standing for `$`) and `${...}` placeholders, in order: `literal` gets each
    /// run of text, `placeholder` what is inside each `${}`; a `$` that starts neither throws `stray`.
    static func scan(_ text: String, literal: (Substring) -> Void,
                     placeholder: (Substring) throws(ConfigError) -> Void, stray: @autoclosure () -> ConfigError)
        throws(ConfigError)
    {
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            literal(rest[..<dollar])
            let after = rest[rest.index(after: dollar)...]
            if after.first == "$" {
                literal("$")
                rest = after.dropFirst()
            } else if after.first == "{", let close = after.firstIndex(of: "}") {
                try placeholder(after[after.index(after: after.startIndex)..<close])
                rest = after[after.index(after: close)...]
            } else {
                throw stray()
            }
        }
        literal(rest)
    }

    /// The values of every variable `text` references as `${NAME}` (set and at least 4 characters long): what
    /// must never be shown, should an upstream echo it back in an error.
    static func referencedValues(in text: String, environment: [String: String]) -> [String] {
        var values: Set<String> = []
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            rest = rest[start.upperBound...]
            guard let close = rest.firstIndex(of: "}") else { break }
            if let value = environment[String(rest[..<close])], value.count >= 4 { values.insert(value) }
            rest = rest[rest.index(after: close)...]
        }
        return values.sorted { $0.count > $1.count }  // longest first, so no secret is half-redacted
    }

    private static func isName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// `value` with every string inside it substituted (for JSON request bodies).
    static func substitute(_ value: JSONValue, environment: [String: String], at keyPath: String,
                           file: String) throws(ConfigError) -> JSONValue {
        switch value {
        case .string(let text):
            return .string(try substitute(text, environment: environment, at: keyPath, file: file))
        case .array(let elements):
            var out: [JSONValue] = []
            for (i, element) in elements.enumerated() {
                out.append(try substitute(element, environment: environment, at: "\(keyPath)[\(i)]", file: file))
            }
            return .array(out)
        case .object(let members):
            var out: [String: JSONValue] = [:]
            for (key, member) in members {
                out[key] = try substitute(member, environment: environment, at: "\(keyPath).\(key)", file: file)
            }
            return .object(out)
        default:
            return value
        }
    }
}
