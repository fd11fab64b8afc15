extension HTTPResult {
    /// The result of `respond` with task-local `local` bound to `value` wherever the answer is produced: while
    /// `respond` runs, in a `.later` answer's task and while a stream opens (each runs outside the caller's scope).
    /// What a responder layer uses to hand the routes a value (a logger, the viewer).
    public static func binding<Value: Sendable>(
        _ local: TaskLocal<Value>, to value: Value, _ respond: () -> HTTPResult
    ) -> HTTPResult {
        let result = local.withValue(value) { respond() }
        switch result {
        case .now(var response):
            guard case .stream(let open) = response.body else { return result }
            response.body = .stream { writer in local.withValue(value) { open(writer) } }
            return .now(response)
        case .later(let produce):
            return .later { await local.withValue(value) { await produce() } }
        }
    }
}
