/// Why sealing keys could not be read. ``description`` names the file and line, never a key's text.
///
/// A plain value: thread-safe.
public struct SealingKeysError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Sendable, Equatable {
        case unreadable
        case noKey
        case notBase64(line: Int)
        case keyTooShort(line: Int, bytes: Int)
    }

    private let code: Code
    /// The key file, if the keys came from one.
    public let file: String?

    private init(_ code: Code, file: String?) {
        self.code = code
        self.file = file
    }

    /// The key file cannot be read (missing, a folder, no permission).
    static func unreadable(file: String) -> SealingKeysError { SealingKeysError(.unreadable, file: file) }
    /// The key file holds no key (only blank lines and comments).
    static func noKey(file: String) -> SealingKeysError { SealingKeysError(.noKey, file: file) }
    /// A line is neither blank, a `#` comment, nor one base64 key.
    static func notBase64(file: String, line: Int) -> SealingKeysError {
        SealingKeysError(.notBase64(line: line), file: file)
    }
    /// A key has fewer than ``SealingKeys/minimumKeyBytes`` bytes.
    static func keyTooShort(file: String?, line: Int, bytes: Int) -> SealingKeysError {
        SealingKeysError(.keyTooShort(line: line, bytes: bytes), file: file)
    }

    /// The 1-based line of the key file (or position in the key list) at fault; nil when no one line is.
    public var line: Int? {
        switch code {
        case .notBase64(let line), .keyTooShort(let line, _): line
        case .unreadable, .noKey: nil
        }
    }

    public var description: String {
        let place = file.map { name in line.map { "\(name) line \($0)" } ?? name } ?? line.map { "key \($0)" } ?? "keys"
        let make = "make one with `rowstream keygen`, docs/SCALING.md"
        return switch code {
        case .unreadable: "\(place): cannot read the sealing key file"
        case .noKey: "\(place): no sealing key (one base64 key per line, the first seals; \(make))"
        case .notBase64: "\(place): not a base64 key (one key per line; blank lines and # comments are skipped)"
        case .keyTooShort(_, let bytes):
            "\(place): the key has \(bytes) bytes; at least \(SealingKeys.minimumKeyBytes) random bytes are needed (\(make))"
        }
    }
}
