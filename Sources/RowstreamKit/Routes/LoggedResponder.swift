import HTTPServer

/// Runs a responder's work with ``RowstreamLogging/current`` bound to a server's logger: the answer itself, a
/// `.later` answer's task and a stream's opening. Tasks started in there (a viewer's loads, a refresh) inherit it.
/// Thread-safe: immutable.
struct LoggedResponder: HTTPResponder {
    let inner: any HTTPResponder
    let logger: any RowstreamLogger

    func respond(to request: HTTPRequest) -> HTTPResult {
        .binding(RowstreamLogging.$current, to: logger) { inner.respond(to: request) }
    }
}
