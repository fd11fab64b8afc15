import Foundation
import Testing
import TestSupport
@testable import HTTPServer

/// Hostile clients on a live server: malformed input, limits, slowloris, connection caps. Every wait is bounded
/// and runs off the cooperative pool.
@Suite(.serialized) struct LiveHardeningTests {
    static let marker = "ZQXMARK"

    func withServer(_ configure: (inout HTTPServerConfiguration) -> Void = { _ in },
                    _ body: (HTTPServer, Int) async throws -> Void) async throws {
        try await withLiveServer({ config in
            config.limits = HTTPParserLimits(maxRequestLineBytes: 1024, maxHeaderBytes: 2048, maxHeaderCount: 10,
                                             maxBodyBytes: 4096)
            configure(&config)
        }, responder: okResponder, body)
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
    func malformedRequestsGetAStatusAShortBodyAndAClose(_ request: String, _ expected: Int) async throws {
        try await withServer { _, port in
            let client = try TestConnection(port: port)
            try client.send(request)
            let response = try await client.readResponse()
            #expect(response.status == expected)
            #expect(response.headers["connection"] == "close")
            #expect(response.body.utf8.count < 100)
            #expect(!response.body.contains(Self.marker))
            #expect(!response.headers.values.contains { $0.contains(Self.marker) })
            #expect(try await client.isClosedByServer())
        }
    }

    @Test func slowlorisTrickleIsClosedByTheHeadTimeout() async throws {
        try await withServer({ $0.requestHeadTimeout = .milliseconds(300) }) { server, port in
            let client = try TestConnection(port: port)
            try client.send("GET / HTTP/1.1\r\nHost: h\r\nX-Pad: ")
            // One byte every 10 ms, for up to ~5 s, never finishing the head: the server must answer first.
            var sent = 0
            while sent < 500, !client.hasInput(), client.trySend("a") {
                sent += 1
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(sent < 500, "the trickling client was never cut off")
            #expect(try await client.readResponse().status == 408)
            #expect(try await client.isClosedByServer())
            #expect(await eventually { server.statistics.openConnections == 0 })
        }
    }

    @Test func connectionCapsPerAddressAndPerProcessAnswer503() async throws {
        try await withServer({ $0.maxConnections = 3; $0.maxConnectionsPerAddress = 2 }) { server, port in
            func served(_ client: TestConnection) async throws -> Bool {
                try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
                return try await client.readResponse().status == 200
            }
            let first = try TestConnection(port: port)
            let second = try TestConnection(port: port)
            #expect(try await served(first))
            #expect(try await served(second))

            let third = try TestConnection(port: port)  // a third from 127.0.0.1: over the per-address cap
            let refused = try await third.readResponse()
            #expect(refused.status == 503)
            #expect(refused.body == "Too many open connections.\n")
            #expect(try await third.isClosedByServer())

            let other = try TestConnection(port: port, sourceAddress: "127.0.0.2")  // another address: admitted
            #expect(try await served(other))
            let fourth = try TestConnection(port: port, sourceAddress: "127.0.0.3")  // over the process cap
            #expect(try await fourth.readResponse().status == 503)
            #expect(server.statistics.refusedConnections == 2)

            // A closed connection frees its place.
            try first.send("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
            _ = try await first.readResponse()
            #expect(await eventually { server.statistics.openConnections == 2 })
            let again = try TestConnection(port: port)
            #expect(try await served(again))
        }
    }
}
