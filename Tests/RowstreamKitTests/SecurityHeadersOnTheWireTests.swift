import Foundation
import HTTPServer
import RowstreamTesting
import TestSupport
import Testing
@testable import RowstreamKit

/// The security headers, encoded once (``SecurityHeaders/encoded``), as a client reads them: each response head a
/// listening server writes carries `Content-Security-Policy` and `Referrer-Policy` exactly once, with the configured
/// policy, whatever answered (a static file, the API, a page, an error, a HEAD, the server itself); and a response
/// that set its own policy gets the server's instead, as before.
@Suite("Security headers on the wire, once")
struct SecurityHeadersOnTheWireTests {
    static let policy = ResponseHeaderTests.policy.replacingOccurrences(of: "frame-ancestors 'none'",
                                                                         with: "frame-ancestors 'self'")

    /// How many lines of `head` name `field` (case-insensitive), and their values.
    static func values(of field: String, in head: String) -> [String] {
        head.components(separatedBy: "\r\n").compactMap { line in
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == field.lowercased()
            else { return nil }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }

    @Test("static, API, page, table page, 404, 405, HEAD and the server's own 400: each head has each header once")
    func eachHeadOnce() async throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.eventLoopCount = 1
        configuration.frameAncestors = ["'self'"]
        let server = try RowstreamServer.start([peopleTable(offsetSource(people(3)))], configuration: configuration)
        defer { server.shutdown() }
        for (request, status) in [
            ("GET /app.css HTTP/1.1", 200), ("GET /app.css HTTP/1.1\r\nAccept-Encoding: gzip", 200),
            ("GET /api/tables HTTP/1.1", 200), ("GET / HTTP/1.1", 200), ("GET /tables/people HTTP/1.1", 200),
            ("GET /tables.css HTTP/1.1", 200), ("GET /nope.js HTTP/1.1", 404), ("DELETE /tables/people HTTP/1.1", 405),
            ("HEAD /app.js HTTP/1.1", 200), ("G(T / HTTP/1.1", 400),
        ] {
            let connection = try TestConnection(port: server.port)
            try connection.send(request + "\r\nHost: h\r\nConnection: close\r\n\r\n")
            let head = try await connection.read(until: "\r\n\r\n")
            #expect(head.hasPrefix("HTTP/1.1 \(status) "), "\(request)")
            #expect(Self.values(of: "Content-Security-Policy", in: head) == [Self.policy], "\(request)")
            #expect(Self.values(of: "Referrer-Policy", in: head) == ["same-origin"], "\(request)")
            #expect(Self.values(of: "X-Content-Type-Options", in: head) == ["nosniff"], "\(request)")
        }
    }

    @Test("a response's own policy is replaced by the server's, once, in place of every field of those names")
    func ownPolicyReplaced() {
        let headers = SecurityHeaders(frameAncestors: [], remoteImages: false)
        let own = HTTPResponse(status: .ok, headers: [
            "Content-Security-Policy": "script-src *", "referrer-policy": "unsafe-url", "X-Own": "kept",
            "content-security-policy": "img-src *",
        ])
        let answer = headers.applied(to: own)
        #expect(answer.headers.values(for: "Content-Security-Policy") == [ResponseHeaderTests.policy])
        #expect(answer.headers.values(for: "Referrer-Policy") == ["same-origin"])
        #expect(answer.headers["X-Own"] == "kept")
        #expect(answer.headers.count == 3)
    }
}
