import HTTPServer

/// Calls an ``HTTPResponder`` (a `Router`, a whole Rowstream server's routes) in-process, with no socket: the
/// request value goes through the same `respond(to:)` the server's connections call, `.later` answers are awaited,
/// and a streaming body is opened on an in-memory ``StreamWriter`` (``InProcessStream``).
///
/// What the socket path adds and this does not: request parsing and its limits, `Content-Length`,
/// `Connection` handling, the response timeout, the server's `: ping` comments, slow-consumer drops. Those stay
/// on the live tests (port 0). Like the server, a HEAD request (and a 1xx, 204 or 304 status) gets no body.
///
/// Thread-safe: a value over a thread-safe responder.
public struct InProcessClient: Sendable {
    public let responder: any HTTPResponder

    public init(_ responder: any HTTPResponder) {
        self.responder = responder
    }

    /// Sends one request; returns its response. A streaming body is opened and handed back as `stream` (its
    /// `body` is empty): read it, then ``InProcessStream/close()`` it as a client hanging up would.
    public func execute(
        _ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: [UInt8] = []
    ) async -> InProcessResponse {
        let request = HTTPRequest(method: method, target: target, headers: headers, body: body)
        let response = switch responder.respond(to: request) {
        case .now(let response): response
        case .later(let produce): await produce()
        }
        let silent = method == .head || response.status.forbidsBody
        switch response.body {
        case .bytes(let bytes):
            return InProcessResponse(status: response.status, headers: response.headers, body: silent ? [] : bytes,
                                     stream: nil)
        case .stream(let open):
            guard !silent else {
                return InProcessResponse(status: response.status, headers: response.headers, body: [], stream: nil)
            }
            let stream = InProcessStream()
            open(stream.writer)
            return InProcessResponse(status: response.status, headers: response.headers, body: [], stream: stream)
        }
    }

    /// `execute(.get, target)`.
    public func get(_ target: String, headers: HTTPHeaders = [:]) async -> InProcessResponse {
        await execute(.get, target, headers: headers)
    }

    /// `execute(.post, target)`.
    public func post(_ target: String, headers: HTTPHeaders = [:], body: [UInt8] = []) async -> InProcessResponse {
        await execute(.post, target, headers: headers, body: body)
    }
}

/// A response as an in-process client sees it. Thread-safe: a value (its `stream` is thread-safe).
public struct InProcessResponse: Sendable {
    public let status: HTTPStatus
    public let headers: HTTPHeaders
    /// A `.bytes` body as the server would send it (empty for HEAD, 1xx, 204 and 304).
    public let body: [UInt8]
    /// A streaming body, opened (nil for a `.bytes` body, HEAD, 1xx, 204 and 304).
    public let stream: InProcessStream?

    /// `body` as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}
