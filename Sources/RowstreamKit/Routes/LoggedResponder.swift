import HTTPServer

/// Runs a responder's work with ``RowstreamLogging/current`` bound to a server's logger: the answer itself, a
/// `.later` answer's task and a stream's opening. Tasks started in there (a viewer's loads, a refresh) inherit it.
/// Thread-safe: immutable.
struct LoggedResponder: HTTPResponder {
    let inner: any HTTPResponder
    let logger: any RowstreamLogger

    func respond(to request: HTTPRequest) -> HTTPResult {
        let logger = logger
        let result = RowstreamLogging.$current.withValue(logger) { inner.respond(to: request) }
        switch result {
        case .now(var response):
            guard case .stream(let open) = response.body else { return result }
            response.body = .stream { writer in RowstreamLogging.$current.withValue(logger) { open(writer) } }
            return .now(response)
        case .later(let produce):
            return .later { await RowstreamLogging.$current.withValue(logger) { await produce() } }
        }
    }
}
