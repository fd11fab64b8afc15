/// A response: status, headers, body. Thread-safe: a value type.
///
/// The server sets `Content-Length` for `.bytes` bodies (and sends no body for HEAD, 204 and 304).
/// A `.stream` body is close-delimited: no `Content-Length`, `Connection: close`, and the connection closes
/// when the stream finishes. Its closure is called once, on the connection's event loop, with the writer.
public struct HTTPResponse: Sendable {
    public enum Body: Sendable {
        case bytes([UInt8])
        case stream(@Sendable (StreamWriter) -> Void)
    }

    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: Body

    public init(status: HTTPStatus, headers: HTTPHeaders = [:], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// `text/plain; charset=utf-8`.
    public static func text(_ string: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPFieldName.contentType: "text/plain; charset=utf-8"],
                     body: .bytes(Array(string.utf8)))
    }

    /// `text/html; charset=utf-8`.
    public static func html(_ bytes: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPFieldName.contentType: "text/html; charset=utf-8"],
                     body: .bytes(bytes))
    }

    /// `application/json`.
    public static func json(_ bytes: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPFieldName.contentType: "application/json"], body: .bytes(bytes))
    }

    /// An SSE response: `Content-Type: text/event-stream`, `Cache-Control: no-cache`, `X-Accel-Buffering: no`.
    /// Writes `retry: <ms>` first, then calls `open` (on the loop) with the writer. The server sends a
    /// `: ping` heartbeat comment on every open event stream every `heartbeatInterval`.
    public static func eventStream(
        retryMilliseconds: Int = 2000, open: @escaping @Sendable (StreamWriter) -> Void
    ) -> HTTPResponse {
        let isDefault = retryMilliseconds == 2000
        let retry = isDefault ? Self.defaultRetryField : Self.retryField(retryMilliseconds)
        return HTTPResponse(status: .ok, headers: Self.eventStreamHeaders, body: .stream { writer in
            if isDefault { writer.write(shared: retry) } else { writer.write(retry) }
            open(writer)
        })
    }

    /// An event stream's headers, built once: every stream's response shares them (a storm's arrivals built them
    /// each, three fields and their arrays).
    private static let eventStreamHeaders: HTTPHeaders = [
        HTTPFieldName.contentType: "text/event-stream",
        HTTPFieldName.cacheControl: "no-cache",
        HTTPFieldName.xAccelBuffering: "no",
    ]

    /// The `retry:` field of an event stream with the default reconnect delay, encoded once (and its gzip block made
    /// once: ``StreamWriter/write(shared:)``).
    private static let defaultRetryField = retryField(2000)

    private static func retryField(_ milliseconds: Int) -> [UInt8] {
        Array("retry: \(max(0, milliseconds))\n\n".utf8)
    }

    /// Whether this is an event stream (gets heartbeats): its content type starts with `text/event-stream`, in any
    /// case. Compared byte by byte (no lowercased copy of the header per response).
    var isEventStream: Bool {
        guard case .stream = body, let type = headers[HTTPFieldName.contentType] else { return false }
        let prefix: StaticString = "text/event-stream"
        let expected = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        return HeadWriter.withBytes(of: type) { bytes in
            bytes.count >= expected.count
                && HTTPHeaders.sameName(bytes: UnsafeBufferPointer(rebasing: bytes.prefix(expected.count)), expected)
        }
    }
}
