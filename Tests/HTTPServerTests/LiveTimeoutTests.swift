import Foundation
import Testing
import TestSupport
@testable import HTTPServer

/// Timeouts, observed as behaviour (what the client receives), with short configured durations.
@Suite(.serialized) struct LiveTimeoutTests {
    func withServer(_ configure: (inout HTTPServerConfiguration) -> Void,
                    _ body: (Int) async throws -> Void) async throws {
        try await withLiveServer({ config in
            config.eventLoopCount = 1
            configure(&config)
        }, responder: okResponder) { _, port in try await body(port) }
    }

    @Test func incompleteRequestHeadGets408AndClose() async throws {
        try await withServer({ $0.requestHeadTimeout = .milliseconds(100) }) { port in
            let client = try TestConnection(port: port)
            try client.send("GET / HTTP/1.1\r\nHost: x\r\n")
            let response = try await client.readResponse()
            #expect(response.status == 408)
            #expect(try await client.isClosedByServer())
        }
    }

    @Test func idleKeepAliveConnectionIsClosed() async throws {
        try await withLiveServer({ $0.eventLoopCount = 1; $0.idleTimeout = .milliseconds(100) },
                                 responder: okResponder) { server, port in
            let client = try TestConnection(port: port)
            try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().body == "ok")
            #expect(try await client.isClosedByServer())
            #expect(server.statistics.totalRequests == 1)
        }
    }

    /// A loop's connections are one list, each at its slot (``ServerLoop``; a removal moves the last one into the
    /// gap). After the first of three hangs up (the third moves into its slot), the idle sweep still finds and closes
    /// the other two, and none is left counted: a slot not moved with its connection kept one listed and open.
    @Test func theSweepFindsEveryConnectionAfterOneClosesOutOfOrder() async throws {
        try await withLiveServer({ $0.eventLoopCount = 1; $0.idleTimeout = .milliseconds(300) },
                                 responder: okResponder) { server, port in
            var clients: [TestConnection] = []
            defer { for client in clients { client.closeNow() } }
            for _ in 0..<3 {
                let client = try TestConnection(port: port)
                try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try await client.readResponse().body == "ok")
                clients.append(client)
            }
            clients[0].closeNow()
            for client in clients.dropFirst() { #expect(try await client.isClosedByServer()) }
            #expect(await eventually { server.statistics.openConnections == 0 })
        }
    }

    @Test func http10ClosesUnlessKeepAliveIsAsked() async throws {
        try await withServer({ _ in }) { port in
            let plain = try TestConnection(port: port)
            try plain.send("GET / HTTP/1.0\r\n\r\n")
            #expect(try await plain.readResponse().headers["connection"] == "close")
            #expect(try await plain.isClosedByServer())
            let kept = try TestConnection(port: port)
            try kept.send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(try await kept.readResponse().headers["connection"] == "keep-alive")
            try kept.send("GET / HTTP/1.0\r\n\r\n")
            #expect(try await kept.readResponse().body == "ok")
        }
    }
}
