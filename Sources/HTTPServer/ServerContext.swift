/// What every connection shares: the responder, settings and counters. Thread-safe (immutable + atomics).
final class ServerContext: Sendable {
    let responder: any HTTPResponder
    let configuration: HTTPServerConfiguration
    let counters = ServerCounters()
    let admission: ConnectionAdmission
    /// Nil when `configuration.freedMemoryReturnDrop` is nil.
    let freedMemory: FreedMemoryReturn?
    /// The whole answer to a connection refused at a cap (``ConnectionAdmission/refusal(headers:)``), made once.
    let refusal: [UInt8]

    init(responder: any HTTPResponder, configuration: HTTPServerConfiguration) {
        self.responder = responder
        self.configuration = configuration
        admission = ConnectionAdmission(maxConnections: configuration.maxConnections,
                                        maxPerAddress: configuration.maxConnectionsPerAddress)
        freedMemory = configuration.freedMemoryReturnDrop.map { FreedMemoryReturn(minimumDrop: $0) }
        refusal = ConnectionAdmission.refusal(headers: configuration.ownAnswerHeaders)
    }

    /// The server's own answer to `error` (a request refused before the responder, a timeout): its plain text,
    /// with `configuration.ownAnswerHeaders`.
    func ownAnswer(_ error: HTTPError) -> HTTPResponse {
        error.response(with: configuration.ownAnswerHeaders)
    }
}
