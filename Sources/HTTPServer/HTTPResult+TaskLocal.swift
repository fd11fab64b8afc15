extension HTTPResult {
    /// The result of `respond` with task-local `local` bound to `value` wherever the answer is produced: while
    /// `respond` runs, in a `.later` answer's task and while a stream opens (each runs outside the caller's scope).
    /// What a responder layer uses to hand the routes a value (a logger, the viewer).
    public static func binding<Value: Sendable>(
        _ local: TaskLocal<Value>, to value: Value, _ respond: () -> HTTPResult
    ) -> HTTPResult {
        let result = local.withValue(value) { respond() }
        switch result {
        case .now(let response):
            return .now(bindingStream(of: response, local, to: value))
        case .later(let produce):
            // A `.later` answer may be a stream too (a reconnect, whose token is read off the loops): it opens bound.
            return .later { bindingStream(of: await local.withValue(value) { await produce() }, local, to: value) }
        }
    }

    /// `response` with `local` bound to `value` while its stream (if it is one) opens.
    private static func bindingStream<Value: Sendable>(
        of response: HTTPResponse, _ local: TaskLocal<Value>, to value: Value
    ) -> HTTPResponse {
        guard case .stream(let open) = response.body else { return response }
        var response = response
        response.body = .stream { writer in local.withValue(value) { open(writer) } }
        return response
    }
}
