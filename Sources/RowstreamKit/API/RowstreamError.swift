/// Why a ``RowstreamServer`` could not start (a bad table name, a missing page template, a port in use), with a
/// message that names what failed. Thread-safe: an immutable value.
public struct RowstreamError: Error, CustomStringConvertible, Sendable {
    /// What failed, for a person to read.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
