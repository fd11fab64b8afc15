import JSON

/// Reads one JSON object of a config file strictly: every read names its key path in errors, and `finish()`
/// refuses keys nobody read (unknown keys are errors, so a typo never passes silently).
///
/// A throwaway value used while parsing; not shared between threads. Pure: no I/O.
struct ConfigReader {
    let file: String
    let path: String
    private let members: [String: JSONValue]
    private var read: Set<String> = []

    /// A reader over `value`, which must be an object.
    init(_ value: JSONValue, file: String, path: String) throws(ConfigError) {
        self.file = file
        self.path = path
        guard case .object(let members) = value else {
            throw ConfigError(file: file, keyPath: path, expected: "an object")
        }
        self.members = members
    }

    func error(_ key: String?, _ expected: String) -> ConfigError {
        ConfigError(file: file, keyPath: key.map(keyPath) ?? path, expected: expected)
    }

    func keyPath(_ key: String) -> String {
        let plain = !key.isEmpty && key.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" }
        let part = plain ? key : "[\"\(key)\"]"
        return path.isEmpty ? part : (plain ? path + "." + part : path + part)
    }

    /// The object's keys, sorted (for maps whose keys are names: read each with the other accessors).
    var keys: [String] { members.keys.sorted() }

    /// The raw value of `key`, marking it read; nil if absent. `null` counts as present.
    mutating func value(_ key: String) -> JSONValue? {
        read.insert(key)
        return members[key]
    }

    mutating func string(_ key: String) throws(ConfigError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw error(key, "a string") }
        return text
    }

    mutating func requiredString(_ key: String, _ expected: String = "a non-empty string") throws(ConfigError) -> String {
        guard let text = try string(key), !text.isEmpty else { throw error(key, expected) }
        return text
    }

    mutating func int(_ key: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int? {
        guard let value = value(key) else { return nil }
        guard case .int(let number) = value, range.contains(Int(clamping: number)) else {
            throw error(key, "a whole number in \(range.lowerBound)...\(range.upperBound)")
        }
        return Int(number)
    }

    /// A number of seconds (fractions allowed) in `range`, as a duration.
    mutating func seconds(_ key: String, in range: ClosedRange<Double>) throws(ConfigError) -> Duration? {
        guard let value = value(key) else { return nil }
        guard let number = value.doubleValue, range.contains(number) else {
            throw error(key, "a number of seconds in \(range.lowerBound)...\(range.upperBound)")
        }
        return .milliseconds(Int64(number * 1000))
    }

    mutating func bool(_ key: String) throws(ConfigError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else { throw error(key, "true or false") }
        return flag
    }

    mutating func jsonPath(_ key: String) throws(ConfigError) -> JSONPath? {
        guard let text = try string(key) else { return nil }
        do throws(JSONError) {
            return try JSONPath(text)
        } catch {
            throw self.error(key, "a JSON path such as data.items or edges[].node (\(error))")
        }
    }

    mutating func object(_ key: String) throws(ConfigError) -> ConfigReader? {
        guard let value = value(key) else { return nil }
        return try ConfigReader(value, file: file, path: keyPath(key))
    }

    mutating func array(_ key: String) throws(ConfigError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else { throw error(key, "an array") }
        return elements
    }

    /// An array of strings (nil when absent).
    mutating func stringList(_ key: String) throws(ConfigError) -> [String]? {
        guard let elements = try array(key) else { return nil }
        var strings: [String] = []
        for element in elements {
            guard case .string(let text) = element else { throw error(key, "an array of strings") }
            strings.append(text)
        }
        return strings
    }

    /// An object of string values (query parameters, headers), in key order.
    mutating func stringMap(_ key: String) throws(ConfigError) -> [(name: String, value: String)] {
        guard var map = try object(key) else { return [] }
        var pairs: [(name: String, value: String)] = []
        for name in map.members.keys.sorted() {
            guard let value = try map.string(name) else { continue }
            pairs.append((name, value))
        }
        return pairs
    }

    /// Throws for the first key (in sorted order) not in `known`: checked up front, so a misspelt key is
    /// reported as such rather than as the required key it was meant to be.
    func rejectUnknown(_ known: Set<String>) throws(ConfigError) {
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            throw error(unknown, "unknown key; known keys here: \(known.sorted().joined(separator: ", "))")
        }
    }

    /// Throws for the first key (in sorted order) that was never read.
    func finish() throws(ConfigError) {
        if let unknown = members.keys.sorted().first(where: { !read.contains($0) }) {
            let known = read.sorted().joined(separator: ", ")
            throw error(unknown, "unknown key; known keys here: \(known)")
        }
    }
}
