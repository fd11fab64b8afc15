/// What a stream wrote for one write that asked to be told (``StreamWriter/write(_:whenWritten:)``): the bytes
/// as they went to the socket, for metrics of bytes per event before and after compression.
///
/// Thread-safe: a value type.
public struct WrittenBytes: Sendable, Equatable {
    /// The content coding they were written in: `identity` (as given), or the coding a compressing stream used.
    public var encoding: String
    /// How many bytes went to the socket for this write.
    public var count: Int

    /// The bytes of a write in `encoding`.
    public init(encoding: String, count: Int) {
        self.encoding = encoding
        self.count = count
    }

    /// `bytes` written as they were given.
    public static func identity(_ bytes: [UInt8]) -> WrittenBytes {
        WrittenBytes(encoding: "identity", count: bytes.count)
    }
}
