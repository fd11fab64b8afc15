import Foundation
import TestSupport
import Testing
@testable import HTTPServer

/// The listening socket defers accepts until a connection has bytes (TCP_DEFER_ACCEPT), and the loop reads an accepted
/// connection at once (`ServerLoop.adopt(_:address:readNow:)`). Neither may lose a client that is slow to speak.
@Suite struct DeferredAcceptTests {
    @Test func theListeningSocketDefersAccepts() throws {
        let (fd, _) = try ListeningSocket.open(host: "127.0.0.1", port: 0)
        defer { close(fd) }
        #expect(ListeningSocket.defersAccept(fd))
    }

    /// A client that connects and sends its request only after the server has answered one that connected after it,
    /// and one that sends nothing until the kernel has handed it to the server anyway (its defer time over: read at
    /// once, it has no bytes, and must stay open), are both answered.
    @Test func clientsThatSendLateAreAnswered() async throws {
        try await withLiveServer(responder: okResponder) { server, port in
            let silent = try TestConnection(port: port)
            defer { silent.closeNow() }
            // Accepted without a byte: what the loop read at once was nothing (EAGAIN), and that must not close it.
            #expect(await eventually { server.statistics.totalConnections == 1 })
            #expect(server.statistics.openConnections == 1)
            try silent.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await silent.readHead().status == 200)

            let late = try TestConnection(port: port)
            defer { late.closeNow() }
            let prompt = try TestConnection(port: port)
            defer { prompt.closeNow() }
            #expect(try await prompt.exchange("GET", "/").status == 200)  // the server has moved on past `late`
            try late.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await late.readHead().status == 200)
        }
    }
}
