import CSystem
import Dispatch
import EventLoop
import Foundation
import Locking
import Testing
import TestSupport
@testable import HTTPServer

/// The accepting loop pauses before its waits while connections arrive as a storm
/// (`HTTPServerConfiguration.arrivalPause`, `Listener.pauseLoopDuringStorms`), and only then: a storm is counted in
/// arrivals that found another connection waiting, so a client that connects again only once answered never makes one,
/// however fast. Here one such arrival within an hour's window is a storm, so which side of it the listener is on does
/// not depend on how fast the test runs; the listener is not registered with epoll: only the calls the test makes
/// accept. Pauses taken are counted in the statistics.
@Suite struct ArrivalPauseTests {
    @Test(arguments: [false, true]) func theLoopPausesOnlyWhenArrivalsFindOthersWaiting(_ together: Bool) async throws {
        try await offPool {
            var config = HTTPServerConfiguration()
            config.arrivalRate = ArrivalRate(window: .seconds(3_600), threshold: 1)
            config.arrivalPause = .microseconds(50)
            let context = ServerContext(responder: okResponder, configuration: config)
            let loop = try EventLoop(index: 0)
            let serverLoop = ServerLoop(loop: loop, context: context)
            let (fd, port) = try ListeningSocket.open(host: "127.0.0.1", port: 0)
            let listener = Listener(fd: fd, loops: [serverLoop], arrivals: config.arrivalRate)
            loop.start()
            defer {
                _ = try? onLoop(loop) { listener.close(); loop.stop() }
                _ = loop.waitForExit(until: .now() + .seconds(30 * TestTime.scale))
            }
            #expect(try onLoop(loop) { listener.pauseLoopDuringStorms() })
            var clients: [TestConnection] = []
            defer { clients.forEach { $0.closeNow() } }
            let open = { context.counters.openConnections.load(ordering: .relaxed) }
            let pauses = { context.counters.arrivalPauses.load(ordering: .relaxed) }

            if together {
                clients.append(try TestConnection(port: port))
                clients.append(try TestConnection(port: port))
                // Both in the accept queue (a loaded machine may finish a loopback handshake after `connect` returns).
                #expect(eventuallyBlocking { Self.acceptQueue(fd) == 2 })
                try onLoop(loop) { listener.handleEvents(csystem_EPOLLIN) }  // one round takes both
                #expect(open() == 2)
                // A storm now: every wait that would block is put off, and the idle loop takes one.
                #expect(try onLoop(loop) { listener.arrivalsAreAStorm() })
                #expect(eventuallyBlocking { pauses() > 0 })
            } else {
                for _ in 0..<3 {  // each connects once the one before was accepted
                    clients.append(try TestConnection(port: port))
                    try onLoop(loop) { listener.handleEvents(csystem_EPOLLIN) }
                }
                #expect(open() == 3)
                #expect(try onLoop(loop) { listener.arrivalsAreAStorm() } == false)
                // Two more jobs, so at least one wait came after the iterations that accepted (whether it would have
                // paused also depends on when the next job's wake-up came): none was put off.
                try onLoop(loop) {}
                try onLoop(loop) {}
                #expect(pauses() == 0)
            }
        }
    }

    @Test func aZeroPauseIsNeverTaken() async throws {
        try await offPool {
            var config = HTTPServerConfiguration()
            config.arrivalPause = .zero
            let context = ServerContext(responder: okResponder, configuration: config)
            let loop = try EventLoop(index: 0)
            let (fd, _) = try ListeningSocket.open(host: "127.0.0.1", port: 0)
            let listener = Listener(fd: fd, loops: [ServerLoop(loop: loop, context: context)])
            loop.start()
            defer {
                _ = try? onLoop(loop) { listener.close(); loop.stop() }
                _ = loop.waitForExit(until: .now() + .seconds(30 * TestTime.scale))
            }
            #expect(try onLoop(loop) { listener.pauseLoopDuringStorms() } == false)
        }
    }

    /// Connections waiting in listening socket `fd`'s accept queue (`TCP_INFO`'s `tcpi_unacked` on a listener).
    static func acceptQueue(_ fd: Int32) -> Int {
        var info = tcp_info()
        var length = socklen_t(MemoryLayout<tcp_info>.size)
        guard getsockopt(fd, Int32(IPPROTO_TCP), TCP_INFO, &info, &length) == 0 else { return -1 }
        return Int(info.tcpi_unacked)
    }
}
