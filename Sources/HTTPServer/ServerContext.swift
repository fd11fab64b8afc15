/// What every connection shares: the responder, settings and counters. Thread-safe (immutable + atomics).
final class ServerContext: Sendable {
    let responder: any HTTPResponder
    let configuration: HTTPServerConfiguration
    let counters = ServerCounters()
    let admission: ConnectionAdmission
    /// Nil when `configuration.freedMemoryReturnDrop` is nil.
    let freedMemory: FreedMemoryReturn?

    init(responder: any HTTPResponder, configuration: HTTPServerConfiguration) {
        self.responder = responder
        self.configuration = configuration
        admission = ConnectionAdmission(maxConnections: configuration.maxConnections,
                                        maxPerAddress: configuration.maxConnectionsPerAddress)
        freedMemory = configuration.freedMemoryReturnDrop.map { FreedMemoryReturn(minimumDrop: $0) }
    }
}
