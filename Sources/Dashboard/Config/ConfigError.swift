/// A config file that cannot be used: which file, where in it (a key path such as
/// `tables[1].pagination.style`), and what was expected there.
///
/// The message never quotes a value that came from the environment (`${API_TOKEN}`), so it is safe to print.
/// Thread-safe: an immutable value.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's name as given on the command line.
    public let file: String
    /// Key path of the offending value; empty for the file as a whole.
    public let keyPath: String
    /// What was expected or what is wrong.
    public let expected: String

    public init(file: String, keyPath: String, expected: String) {
        self.file = file
        self.keyPath = keyPath
        self.expected = expected
    }

    public var description: String {
        keyPath.isEmpty ? "\(file): \(expected)" : "\(file): \(keyPath): \(expected)"
    }
}
