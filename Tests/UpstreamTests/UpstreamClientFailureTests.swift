import Glibc
import TestSupport
import Testing
@testable import Upstream

/// Timeouts, size caps, broken connections and refused URLs.
@Suite struct UpstreamClientFailureTests {
    @Test func hangingUpstreamTimesOut() async throws {
        let server = try FixtureServer { _ in .hang }
        defer { server.stop() }
        let client = try UpstreamClient()
        defer { client.shutdown() }
        var request = UpstreamRequest(url: server.baseURL + "/hang")
        request.timeout = .milliseconds(300)

        await #expect(throws: UpstreamError.timedOut) { try await client.fetch(request) }
    }

    @Test func chunkedBodyOverTheCapIsRefused() async throws {
        let server = try FixtureServer { _ in .chunked(chunkBytes: 16 * 1024, chunks: 64) }
        defer { server.stop() }
        var configuration = UpstreamClientConfiguration()
        configuration.maxBodyBytes = 256 * 1024
        let client = try UpstreamClient(configuration: configuration)
        defer { client.shutdown() }

        // Only the size is compared, so a failure does not print megabytes of body.
        await #expect(throws: UpstreamError.bodyTooLarge) {
            try await client.fetch(UpstreamRequest(url: server.baseURL + "/huge")).body.count
        }
    }

    @Test func chunkedBodyUnderTheCapIsDelivered() async throws {
        let server = try FixtureServer { _ in .chunked(chunkBytes: 1000, chunks: 5) }
        defer { server.stop() }
        let client = try UpstreamClient()
        defer { client.shutdown() }

        let response = try await client.fetch(UpstreamRequest(url: server.baseURL + "/ok"))

        #expect(response.body == [UInt8](repeating: UInt8(ascii: "y"), count: 5000))
    }

    @Test func declaredBodyOverTheCapIsRefused() async throws {
        let server = try FixtureServer { _ in .respond(status: 200, headers: [], body: [UInt8](repeating: 1, count: 4096)) }
        defer { server.stop() }
        var configuration = UpstreamClientConfiguration()
        configuration.maxBodyBytes = 1024
        let client = try UpstreamClient(configuration: configuration)
        defer { client.shutdown() }

        await #expect(throws: UpstreamError.bodyTooLarge) {
            try await client.fetch(UpstreamRequest(url: server.baseURL + "/big")).body.count
        }
    }

    @Test func gzipBombStopsAtTheDecompressionRatioNotTheSizeCap() async throws {
        // 32 MiB of zeros in ~206 KiB (159:1): under a 64 MiB size cap it would be inflated in full; the ratio stops it.
        let bomb = Gzip.zeros(count: 32 << 20)
        let plain = Gzip.literalZeros(count: 2 << 20)  // 2 MiB at ~1:1, past the check: must pass
        let server = try FixtureServer { request in
            .respond(status: 200, headers: [("Content-Encoding", "gzip")], body: request.path == "/bomb" ? bomb : plain)
        }
        defer { server.stop() }
        var configuration = UpstreamClientConfiguration()
        configuration.maxBodyBytes = 64 << 20
        let client = try UpstreamClient(configuration: configuration)
        defer { client.shutdown() }

        await #expect(throws: UpstreamError.bodyTooLarge) {
            try await client.fetch(UpstreamRequest(url: server.baseURL + "/bomb")).body.count
        }
        let body = try await client.fetch(UpstreamRequest(url: server.baseURL + "/plain")).body
        #expect(body.count == 2 << 20 && body.allSatisfy { $0 == 0 })

        var unlimited = configuration
        unlimited.maxDecompressionRatio = Int.max
        let lenient = try UpstreamClient(configuration: unlimited)
        defer { lenient.shutdown() }
        #expect(try await lenient.fetch(UpstreamRequest(url: server.baseURL + "/bomb")).body.count == 32 << 20)
    }

    @Test func connectionClosedMidBodyFails() async throws {
        let server = try FixtureServer { _ in .closeMidBody(declared: 1000, sent: 10) }
        defer { server.stop() }
        let client = try UpstreamClient()
        defer { client.shutdown() }

        let error = await #expect(throws: UpstreamError.self) {
            try await client.fetch(UpstreamRequest(url: server.baseURL + "/cut"))
        }
        #expect(error == .connectionLost)
        #expect(error?.isRetryable == true)
        #expect(error?.description.contains("broke") == true)
    }

    @Test func refusedConnectionFails() async throws {
        // A port held by a socket that is bound but not listening: connecting is refused, and no other test's
        // server can take the port meanwhile (a stopped server's port could be reused by a parallel test).
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(holder >= 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(holder, $0, length) == 0 && getsockname(holder, $0, &length) == 0
            }
        }
        try #require(bound)
        let url = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/gone"
        let client = try UpstreamClient()
        defer { client.shutdown() }

        let error = await #expect(throws: UpstreamError.self) { try await client.fetch(UpstreamRequest(url: url)) }
        #expect(error == .connectionFailed)
        #expect(error?.isRetryable == true)
    }

    @Test func redirectIsFollowedAndOnlyTheLastHeadersKept() async throws {
        let server = try FixtureServer { request in
            request.path == "/from" ? .redirect(to: "/to", headers: [("X-First", "1")]) : .json("{\"at\":\"to\"}")
        }
        defer { server.stop() }
        let client = try UpstreamClient()
        defer { client.shutdown() }

        let response = try await client.fetch(UpstreamRequest(url: server.baseURL + "/from"))

        #expect(response.status == 200)
        #expect(response.effectiveURL == server.baseURL + "/to")
        #expect(response.header("x-first") == nil)
        #expect(response.header("content-type") == "application/json")
    }

    @Test(arguments: ["file:///etc/passwd", "gopher://127.0.0.1:1/x", "ftp://127.0.0.1/x"])
    func redirectToOtherSchemesIsRefused(target: String) async throws {
        let server = try FixtureServer { _ in .redirect(to: target) }
        defer { server.stop() }
        let client = try UpstreamClient()
        defer { client.shutdown() }

        await #expect(throws: UpstreamError.protocolNotAllowed) {
            try await client.fetch(UpstreamRequest(url: server.baseURL + "/jump"))
        }
    }

    @Test func tooManyRedirectsFail() async throws {
        let server = try FixtureServer { request in .redirect(to: request.path + "x") }
        defer { server.stop() }
        var configuration = UpstreamClientConfiguration()
        configuration.maxRedirects = 3
        let client = try UpstreamClient(configuration: configuration)
        defer { client.shutdown() }

        await #expect(throws: UpstreamError.tooManyRedirects) {
            try await client.fetch(UpstreamRequest(url: server.baseURL + "/r"))
        }
        #expect(server.requests.count == 4)
    }

    @Test(arguments: [
        ("file:///etc/passwd", UpstreamError.protocolNotAllowed),
        ("gopher://example.invalid/", .protocolNotAllowed),
        ("not a url", .invalidURL),
        ("http://", .invalidURL),
        ("http://127.0.0.1/a b", .invalidURL),
    ])
    func badURLsAreRefusedBeforeSending(url: String, expected: UpstreamError) async throws {
        let client = try UpstreamClient()
        defer { client.shutdown() }

        await #expect(throws: expected) { try await client.fetch(UpstreamRequest(url: url)) }
    }

    @Test func headerInjectionIsRefused() async throws {
        let server = try FixtureServer { _ in .json("{}") }
        defer { server.stop() }
        let client = try UpstreamClient()
        defer { client.shutdown() }
        var request = UpstreamRequest(url: server.baseURL + "/")
        request.headers = [("X-Evil", "a\r\nX-Injected: 1")]

        await #expect(throws: UpstreamError.invalidRequest) { try await client.fetch(request) }
        #expect(server.requests.isEmpty)
    }
}
