/// An HTTP protocol version, e.g. 1.1.
public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    public var major: Int
    public var minor: Int
    public init(major: Int, minor: Int) { self.major = major; self.minor = minor }
    /// HTTP/1.0.
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    /// HTTP/1.1.
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)
    public var description: String { "HTTP/\(major).\(minor)" }
}

/// A parsed HTTP request: head plus complete body.
///
/// Thread-safe: a value type.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The raw request-target, as sent.
    public var target: String
    /// The target before `?`, not percent-decoded.
    public var path: String
    /// The target after `?`, raw; nil when there is no `?`.
    public var query: String?
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The IPv4 address of the connection's peer (host byte order, `0x7F000001` for 127.0.0.1); nil when unknown
    /// (an in-process request, unless a test sets it). A reverse proxy's address, not its client's, behind one.
    public var peerAddress: UInt32? = nil

    /// Creates a request (for in-process tests and for the parser). `path` and `query` are split from `target`.
    public init(
        method: HTTPMethod, target: String, version: HTTPVersion = .http1_1,
        headers: HTTPHeaders = [:], body: [UInt8] = []
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        // Looked for in place (iterating the `UTF8View` cost about 30 instructions a byte, every request).
        let offset = HeadWriter.withBytes(of: target) { $0.firstIndex(of: UInt8(ascii: "?")) }
        if let mark = offset.map({ target.utf8.index(target.utf8.startIndex, offsetBy: $0) }) {
            path = String(target[..<mark])
            query = String(target[target.index(after: mark)...])
        } else {
            path = target
            query = nil
        }
    }

    /// A parsed request, its target already split (``RequestLine``).
    init(method: HTTPMethod, target: String, path: String, query: String?, version: HTTPVersion, headers: HTTPHeaders,
         body: [UInt8]) {
        self.method = method
        self.target = target
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// The first query parameter called `name`, form-decoded (`+` and `%XX`); nil when absent or malformed.
    public func queryValue(_ name: String) -> String? {
        guard let query else { return nil }
        return HeadWriter.withBytes(of: query) { FormPairs.firstValue(named: name, in: $0) }
    }

    /// Every query parameter called `name`, in order, form-decoded; an element is nil when its value is malformed
    /// (a bad `%XX` escape, or not UTF-8). Empty when absent. For values that must be given at most once and whose
    /// malformed form must be refused, not ignored.
    public func queryValues(_ name: String) -> [String?] {
        guard let query else { return [] }
        return HeadWriter.withBytes(of: query) { FormPairs.values(named: name, in: $0) }
    }

    /// The first field called `name` of an `application/x-www-form-urlencoded` body (a form's POST), decoded as
    /// ``queryValue(_:)`` decodes; nil when absent or malformed.
    public func formValue(_ name: String) -> String? {
        body.withUnsafeBufferPointer { FormPairs.firstValue(named: name, in: $0) }
    }

    /// Whether the connection stays open after this request's response (RFC 9112 §9.3).
    var wantsKeepAlive: Bool {
        if headers.hasToken("close", in: HTTPFieldName.connection) { return false }
        if version == .http1_1 { return true }
        return headers.hasToken("keep-alive", in: HTTPFieldName.connection)
    }
}
