/// Size limits the request parser enforces. Thread-safe: a value type.
public struct HTTPParserLimits: Sendable, Hashable {
    /// Longest request line (method, target, version), CRLF excluded; longer -> 414.
    public var maxRequestLineBytes: Int = 8 * 1024
    /// Most bytes in the header section (after the request line, blank line included); more -> 431.
    public var maxHeaderBytes: Int = 16 * 1024
    /// Most header fields; more -> 431.
    public var maxHeaderCount: Int = 100
    /// Largest `Content-Length` body; larger -> 413.
    public var maxBodyBytes: Int = 1 << 20

    public init() {}

    public init(maxRequestLineBytes: Int, maxHeaderBytes: Int, maxHeaderCount: Int, maxBodyBytes: Int) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
    }
}

/// Why a request was refused. The connection must answer with `status` and close.
/// `message` is a fixed description; it never contains request bytes. Thread-safe: a value type.
public struct HTTPParseError: Error, Sendable, Hashable {
    public let status: HTTPStatus
    public let message: String

    init(_ status: HTTPStatus, _ message: String) {
        self.status = status
        self.message = message
    }
}
