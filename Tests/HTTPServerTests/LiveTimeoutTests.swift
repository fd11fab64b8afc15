import Foundation
import Testing
@testable import HTTPServer

/// Timeouts, observed as behaviour (what the client receives), with short configured durations.
@Suite(.serialized) struct LiveTimeoutTests {
    func start(_ configure: (inout HTTPServerConfiguration) -> Void) throws -> (HTTPServer, Int) {
        var config = HTTPServerConfiguration()
        config.port = 0
        config.eventLoopCount = 1
        configure(&config)
        let server = HTTPServer(configuration: config, responder: ClosureResponder { _ in .now(.text("ok")) })
        return (server, try server.start())
    }

    @Test func incompleteRequestHeadGets408AndClose() throws {
        let (server, port) = try start { $0.requestHeadTimeout = .milliseconds(100) }
        defer { server.shutdown() }
        let client = try TestClient(port: port)
        try client.send("GET / HTTP/1.1\r\nHost: x\r\n")
        let response = try client.readResponse()
        #expect(response.status == 408)
        #expect(try client.isClosedByServer())
    }

    @Test func idleKeepAliveConnectionIsClosed() throws {
        let (server, port) = try start { $0.idleTimeout = .milliseconds(100) }
        defer { server.shutdown() }
        let client = try TestClient(port: port)
        try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try client.readResponse().text == "ok")
        #expect(try client.isClosedByServer())
        #expect(server.statistics.totalRequests == 1)
    }

    @Test func http10ClosesUnlessKeepAliveIsAsked() throws {
        let (server, port) = try start { _ in }
        defer { server.shutdown() }
        let plain = try TestClient(port: port)
        try plain.send("GET / HTTP/1.0\r\n\r\n")
        #expect(try plain.readResponse().header("Connection") == "close")
        #expect(try plain.isClosedByServer())
        let kept = try TestClient(port: port)
        try kept.send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try kept.readResponse().header("Connection") == "keep-alive")
        try kept.send("GET / HTTP/1.0\r\n\r\n")
        #expect(try kept.readResponse().text == "ok")
    }
}
