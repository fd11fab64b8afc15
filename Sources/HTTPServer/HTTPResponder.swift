/// What a responder returns: a response now, or an async computation of one.
///
/// `.later` runs its closure in a `Task` (off the event loop) and hands the response back to the
/// connection's loop; pipelined requests on that connection wait for it, in order. The task is cancelled when
/// the connection closes first (the client hung up, reset, or the server stopped): check for cancellation to
/// stop work nobody will read.
public enum HTTPResult: Sendable {
    case now(HTTPResponse)
    case later(@Sendable () async -> HTTPResponse)
}

/// The centre of the server: turns a request into a result.
///
/// - Important: `respond(to:)` is called on the connection's event loop and must not block; do slow work
///   in `.later`. Implementations must be thread-safe (several loops call it at once).
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest) -> HTTPResult
}

/// A responder made from a closure. Thread-safe.
public struct ClosureResponder: HTTPResponder {
    private let body: @Sendable (HTTPRequest) -> HTTPResult
    public init(_ body: @escaping @Sendable (HTTPRequest) -> HTTPResult) { self.body = body }
    public func respond(to request: HTTPRequest) -> HTTPResult { body(request) }
}
