import Foundation
import Synchronization
import Testing
import TestSupport
@testable import HTTPServer

/// A peer that vanishes without a FIN or RST: the server must find out by itself (`deadPeerTimeout`).
///
/// Loopback never loses a packet, so the test runs servers and clients in a fresh network namespace of its own
/// (a thread-level `unshare(CLONE_NEWNET)`; needs root) and, once the streams are open, makes that namespace's
/// loopback drop every packet (`tc qdisc add dev lo root blackhole`): from then on the clients send nothing and
/// acknowledge nothing, exactly as a vanished host. Two servers watch one stream each: one with the detection
/// (1 s), one without it (kernel defaults: about 15 minutes of retransmissions). The first must close its stream
/// and call its `onClose` (which is what frees a viewer); when it has, the second's stream must still be open,
/// which shows that the closing came from the detection, not from the test's set-up.
@Suite struct DeadPeerTests {
    struct Outcome: Sendable {
        var detected: Bool
        var detectingStreamsLeft: Int
        var detectingConnectionsLeft: Int
        var controlStreamClosed: Bool
        var controlStreamsOpen: Int
    }

    @Test(.enabled(if: getuid() == 0, "a network namespace needs root"))
    func aVanishedPeerIsClosedByTheUserTimeoutWhileHeartbeatsGoUnacknowledged() async throws {
        let outcome = try await offPool { try Self.runInFreshNetworkNamespace() }
        #expect(outcome.detected, "the stream of a vanished peer was not closed")
        #expect(outcome.detectingStreamsLeft == 0)
        #expect(outcome.detectingConnectionsLeft == 0)
        #expect(!outcome.controlStreamClosed, "without the detection the stream should still be open")
        #expect(outcome.controlStreamsOpen == 1)
    }

    /// Runs on a thread of its own (never the cooperative pool): the namespace is the thread's.
    static func runInFreshNetworkNamespace() throws -> Outcome {
        try NetworkNamespace.enterFresh()
        let detectingClosed = Atomic<Int>(0)
        let controlClosed = Atomic<Int>(0)
        let detecting = server(deadPeerTimeout: .seconds(1)) { detectingClosed.add(1, ordering: .relaxed) }
        let control = server(deadPeerTimeout: nil) { controlClosed.add(1, ordering: .relaxed) }
        defer {
            detecting.shutdown()
            control.shutdown()
        }
        let ports = (try detecting.start(), try control.start())
        let clients = [try TestConnection(port: ports.0), try TestConnection(port: ports.1)]
        defer { clients.forEach { $0.closeNow() } }
        for client in clients { try client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n") }
        let opened = eventuallyBlocking { detecting.statistics.openStreams == 1 && control.statistics.openStreams == 1 }
        guard opened else { throw TestConnection.Failure(description: "the streams did not open") }

        try NetworkNamespace.run("tc", ["qdisc", "add", "dev", "lo", "root", "blackhole"])
        let detected = eventuallyBlocking { detectingClosed.load(ordering: .relaxed) == 1 }
        // The stream's `onClose` runs inside the connection's close, just before the connection is forgotten: wait
        // (bounded) for that too, or a busy machine reads the count in between.
        _ = eventuallyBlocking { detecting.statistics.openConnections == 0 }
        return Outcome(detected: detected,
                       detectingStreamsLeft: detecting.statistics.openStreams,
                       detectingConnectionsLeft: detecting.statistics.openConnections,
                       controlStreamClosed: controlClosed.load(ordering: .relaxed) > 0,
                       controlStreamsOpen: control.statistics.openStreams)
    }

    static func server(deadPeerTimeout: Duration?, onClose: @escaping @Sendable () -> Void) -> HTTPServer {
        var builder = RouterBuilder()
        builder.get("/events") { _, _ in .now(.eventStream { writer in writer.onClose(onClose) }) }
        var config = HTTPServerConfiguration()
        config.port = 0
        config.eventLoopCount = 1
        config.shutdownGrace = .seconds(2)
        config.heartbeatInterval = .milliseconds(100)
        config.deadPeerTimeout = deadPeerTimeout
        return HTTPServer(configuration: config, responder: builder.build())
    }
}
