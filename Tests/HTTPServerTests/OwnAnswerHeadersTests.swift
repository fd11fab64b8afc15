import Foundation
import Testing
import TestSupport
@testable import HTTPServer

/// The answers the server makes itself, without the responder (a malformed or oversized request, the head and
/// response timeouts, the connection cap), carry `ownAnswerHeaders`, as the responder's answers carry the same
/// security headers (docs/HARDENING.md, "Every answer's headers"); a field that would split the head is dropped.
/// Raw sockets on a live server; every wait bounded.
@Suite(.serialized) struct OwnAnswerHeadersTests {
    static let policy = "default-src 'none'; frame-ancestors 'none'"
    static let marker = "ZQXMARK"

    static func configure(_ config: inout HTTPServerConfiguration) {
        config.limits = HTTPParserLimits(maxRequestLineBytes: 1024, maxHeaderBytes: 2048, maxHeaderCount: 10,
                                         maxBodyBytes: 4096)
        config.ownAnswerHeaders = ["Content-Security-Policy": policy, "Referrer-Policy": "same-origin",
                                   "X-Split": "a\r\nSet-Cookie: evil=1"]
    }

    static func expectHeaders(_ response: TestResponse, _ what: String) {
        #expect(response.headers["content-security-policy"] == policy, "\(what)")
        #expect(response.headers["referrer-policy"] == "same-origin", "\(what)")
        #expect(response.headers["x-content-type-options"] == "nosniff", "\(what)")
        #expect(response.headers["x-split"] == nil && response.headers["set-cookie"] == nil, "\(what): no split head")
        #expect(response.headers["content-type"] == "text/plain; charset=utf-8", "\(what)")
        #expect(!response.body.contains(marker) && !response.body.contains("<"), "\(what): nothing echoed")
    }

    /// The answer to `request` on a server configured by `configure` too.
    static func answer(to request: String, _ configure: (inout HTTPServerConfiguration) -> Void = { _ in },
                       responder: any HTTPResponder = okResponder) async throws -> TestResponse {
        var response: TestResponse?
        try await withLiveServer({ Self.configure(&$0); configure(&$0) }, responder: responder) { _, port in
            let client = try TestConnection(port: port)
            try client.send(request)
            response = try await client.readResponse()
        }
        return try #require(response)
    }

    static let m = marker
    @Test(arguments: [
        ("G(T /<script>\(m) HTTP/1.1\r\nHost: h\r\n\r\n", 400),                       // malformed request line
        ("GET /<b>\(m) HTTP/1.1\nHost: h\r\n\r\n", 400),                              // bare LF
        ("GET /\(m) HTTP/1.1\r\nHost: h\r\nX-\(m): a\r\n <i>folded\r\n\r\n", 400),    // obs-fold
        ("GET /\(m)\(String(repeating: "a", count: 1100)) HTTP/1.1\r\nHost: h\r\n\r\n", 414),
        ("GET / HTTP/1.1\r\nHost: h\r\nX-\(m): <\(String(repeating: "b", count: 2100))\r\n\r\n", 431),
        ("POST /\(m) HTTP/1.1\r\nHost: h\r\nContent-Length: 5000\r\n\r\n", 413),
        ("POST /\(m) HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n", 501),
    ])
    func refusedRequests(_ request: String, _ expected: Int) async throws {
        let response = try await Self.answer(to: request)
        #expect(response.status == expected)
        Self.expectHeaders(response, "\(expected)")
    }

    @Test func requestHeadTimeout408() async throws {
        let response = try await Self.answer(to: "GET / HTTP/1.1\r\nHost: x\r\n") {
            $0.requestHeadTimeout = .milliseconds(200)
        }
        #expect(response.status == 408)
        Self.expectHeaders(response, "408")
    }

    @Test func responseTimeout504() async throws {
        let gate = ReplyGate()
        defer { gate.releaseAll() }
        let response = try await Self.answer(to: "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n",
                                             { $0.responseTimeout = .milliseconds(300) },
                                             responder: LivePendingTests.responder(gate))
        #expect(response.status == 504)
        Self.expectHeaders(response, "504")
    }

    @Test func connectionCap503() async throws {
        try await withLiveServer({ Self.configure(&$0); $0.maxConnectionsPerAddress = 1 },
                                 responder: okResponder) { _, port in
            let first = try TestConnection(port: port)
            #expect(try await first.exchange("GET", "/").status == 200)
            let refused = try await TestConnection(port: port).readResponse()
            #expect(refused.status == 503)
            #expect(refused.headers["retry-after"] == "1")
            Self.expectHeaders(refused, "503")
        }
    }

    @Test func routedAnswersAreTheResponders() async throws {
        try await withLiveServer(Self.configure, responder: okResponder) { _, port in
            let answer = try await TestConnection(port: port).exchange("GET", "/")
            #expect(answer.status == 200)
            #expect(answer.headers["content-security-policy"] == nil, "the responder's answer carries its own headers")
        }
    }
}
