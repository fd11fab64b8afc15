/// A JSON parse or path syntax error: the byte offset where it was found and what was expected there.
///
/// Thread-safe: an immutable value type.
public struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as a stable code for tests and callers that branch on it.
    public enum Kind: String, Sendable, Hashable {
        case unexpectedEnd
        case unexpectedCharacter
        case invalidNumber
        case numberOutOfRange
        case invalidEscape
        case invalidUnicodeEscape
        case unpairedSurrogate
        case controlCharacterInString
        case invalidUTF8
        case tooDeep
        case trailingData
        case invalidPath
    }

    /// The kind of error.
    public let kind: Kind
    /// Byte offset into the input (or character offset into a path string).
    public let offset: Int
    /// What the parser expected at `offset`, in words.
    public let expected: String

    /// Creates an error.
    public init(_ kind: Kind, at offset: Int, expected: String) {
        self.kind = kind
        self.offset = offset
        self.expected = expected
    }

    public var description: String {
        "JSON error (\(kind.rawValue)) at offset \(offset): expected \(expected)"
    }
}
