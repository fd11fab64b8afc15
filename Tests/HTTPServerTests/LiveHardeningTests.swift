import Foundation
import Testing
@testable import HTTPServer

/// Hostile clients on a live server: malformed input, limits, slowloris, connection caps. Every wait is bounded.
@Suite(.serialized) struct LiveHardeningTests {
    static let marker = "ZQXMARK"

    func withServer(_ configure: (inout HTTPServerConfiguration) -> Void = { _ in },
                    _ body: (HTTPServer, Int) throws -> Void) throws {
        var config = HTTPServerConfiguration()
        config.port = 0
        config.eventLoopCount = 2
        config.shutdownGrace = .seconds(2)
        config.limits = HTTPParserLimits(maxRequestLineBytes: 1024, maxHeaderBytes: 2048, maxHeaderCount: 10,
                                         maxBodyBytes: 4096)
        configure(&config)
        let server = HTTPServer(configuration: config, responder: ClosureResponder { _ in .now(.text("ok")) })
        let port = try server.start()
        defer { server.shutdown() }
        try body(server, port)
    }

    /// Polls `condition` up to ~5 s; returns its last value.
    func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<500 where !condition() { usleep(10_000) }
        return condition()
    }

    static let m = marker
    @Test(arguments: [
        ("G(T /\(m) HTTP/1.1\r\nHost: h\r\n\r\n", 400),                               // bad method token
        ("GET /\(m) HTTP/1.1\nHost: h\r\n\r\n", 400),                                 // bare LF
        ("GET /\(m)\0 HTTP/1.1\r\nHost: h\r\n\r\n", 400),                             // NUL byte
        ("POST /\(m) HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc", 400),
        ("GET / HTTP/1.1\r\nHost: h\r\nX-\(m): a\r\n folded\r\n\r\n", 400),           // obs-fold
        ("GET /\(m) HTTP/7.0\r\nHost: h\r\n\r\n", 400),                               // unknown version
        ("GET /\(m)\(String(repeating: "a", count: 1100)) HTTP/1.1\r\nHost: h\r\n\r\n", 414),
        ("GET / HTTP/1.1\r\nHost: h\r\nX-\(m): \(String(repeating: "b", count: 2100))\r\n\r\n", 431),
        ("GET / HTTP/1.1\r\nHost: h\r\n" + String(repeating: "X-\(m): 1\r\n", count: 11) + "\r\n", 431),
        ("POST /\(m) HTTP/1.1\r\nHost: h\r\nContent-Length: 5000\r\n\r\n", 413),
        ("POST /\(m) HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n", 501),
    ])
    func malformedRequestsGetAStatusAShortBodyAndAClose(_ request: String, _ expected: Int) throws {
        try withServer { _, port in
            let client = try TestClient(port: port)
            try client.send(request)
            let response = try client.readResponse()
            #expect(response.status == expected)
            #expect(response.header("Connection") == "close")
            #expect(response.body.count < 100)
            #expect(!response.text.contains(Self.marker))
            #expect(!response.headers.contains { $0.1.contains(Self.marker) })
            #expect(try client.isClosedByServer())
        }
    }

    @Test func slowlorisTrickleIsClosedByTheHeadTimeout() throws {
        try withServer({ $0.requestHeadTimeout = .milliseconds(300) }) { server, port in
            let client = try TestClient(port: port)
            try client.send("GET / HTTP/1.1\r\nHost: h\r\nX-Pad: ")
            // One byte every 10 ms, for up to ~5 s, never finishing the head: the server must answer first.
            var sent = 0
            while sent < 500, !client.hasInput(), client.trySend("a") {
                sent += 1
                usleep(10_000)
            }
            #expect(sent < 500, "the trickling client was never cut off")
            #expect(try client.readResponse().status == 408)
            #expect(try client.isClosedByServer())
            #expect(eventually { server.statistics.openConnections == 0 })
        }
    }

    @Test func connectionCapsPerAddressAndPerProcessAnswer503() throws {
        try withServer({ $0.maxConnections = 3; $0.maxConnectionsPerAddress = 2 }) { server, port in
            func served(_ client: TestClient) throws -> Bool {
                try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
                return try client.readResponse().status == 200
            }
            let first = try TestClient(port: port)
            let second = try TestClient(port: port)
            #expect(try served(first) && served(second))

            let third = try TestClient(port: port)  // a third from 127.0.0.1: over the per-address cap
            let refused = try third.readResponse()
            #expect(refused.status == 503)
            #expect(refused.text == "Too many open connections.\n")
            #expect(try third.isClosedByServer())

            let other = try TestClient(port: port, sourceAddress: "127.0.0.2")  // another address: admitted
            #expect(try served(other))
            let fourth = try TestClient(port: port, sourceAddress: "127.0.0.3")  // over the process cap
            #expect(try fourth.readResponse().status == 503)
            #expect(server.statistics.refusedConnections == 2)

            // A closed connection frees its place.
            try first.send("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
            _ = try first.readResponse()
            #expect(eventually { server.statistics.openConnections == 2 })
            let again = try TestClient(port: port)
            #expect(try served(again))
        }
    }
}
