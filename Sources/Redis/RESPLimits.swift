/// Bounds on what one reply may make the client hold: a hostile or broken server gets ``RedisError/replyTooLarge``
/// (and its connection closed), never a crash or an unbounded allocation. A plain value.
public struct RESPLimits: Sendable, Equatable {
    /// The longest bulk string (`$`, `!`, `=`), in bytes.
    public var maxBulkBytes: Int
    /// The most elements of one array, set, push or map (map: pairs).
    public var maxElements: Int
    /// The deepest nesting of aggregates (the parser recurses: this bounds its stack).
    public var maxDepth: Int
    /// The longest line of a simple string, error, number or header, in bytes.
    public var maxLineBytes: Int
    /// The most bytes one whole reply may take on the wire.
    public var maxReplyBytes: Int

    public init(maxBulkBytes: Int = 64 << 20, maxElements: Int = 1 << 20, maxDepth: Int = 16,
                maxLineBytes: Int = 64 << 10, maxReplyBytes: Int = 128 << 20) {
        self.maxBulkBytes = maxBulkBytes
        self.maxElements = maxElements
        self.maxDepth = maxDepth
        self.maxLineBytes = maxLineBytes
        self.maxReplyBytes = maxReplyBytes
    }
}
