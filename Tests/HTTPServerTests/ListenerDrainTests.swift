import CSystem
import Dispatch
import EventLoop
import Foundation
import Testing
import TestSupport
@testable import HTTPServer

/// A storm of arrivals: within its drain window of the last arrival, the listener is drained again at the end of
/// every pass (``Listener/drainEachPass()``), not only when epoll reports it (which, among thousands of readable
/// connections, it does every dozen passes while the backlog overflows), also after a pass that found none; past the
/// window it waits for its event again. The listener here is never registered with epoll: only the calls the test
/// makes accept.
@Suite struct ListenerDrainTests {
    @Test(arguments: [false, true]) func aListenerIsDrainedEachPassWithinItsWindow(_ pastTheWindow: Bool) async throws {
        try await offPool {
            let context = ServerContext(responder: okResponder, configuration: HTTPServerConfiguration())
            let loop = try EventLoop(index: 0)
            let serverLoop = ServerLoop(loop: loop, context: context)
            let (fd, port) = try ListeningSocket.open(host: "127.0.0.1", port: 0)
            let listener = Listener(fd: fd, loops: [serverLoop], drainWindow: pastTheWindow ? .zero : .seconds(3_600))
            loop.start()
            defer {
                _ = try? onLoop(loop) { listener.close(); loop.stop() }
                _ = loop.waitForExit(until: .now() + .seconds(30 * TestTime.scale))
            }
            let open = { context.counters.openConnections.load(ordering: .relaxed) }
            var clients: [TestConnection] = []
            defer { clients.forEach { $0.closeNow() } }
            func arrive() throws { clients.append(try TestConnection(port: port)) }

            try onLoop(loop) { listener.drainEachPass() }  // before any arrival: nothing
            try arrive()
            #expect(open() == 0)
            try onLoop(loop) { listener.handleEvents(csystem_EPOLLIN) }  // its epoll event
            #expect(open() == 1)
            try onLoop(loop) { listener.drainEachPass() }  // finds none
            try arrive()
            try onLoop(loop) { listener.drainEachPass() }  // still within the window: accepts with no event
            #expect(open() == (pastTheWindow ? 1 : 2))
            try onLoop(loop) { listener.handleEvents(csystem_EPOLLIN) }
            #expect(open() == 2)
        }
    }
}
