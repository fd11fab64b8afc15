import Foundation
import JSON
import Locking
import Testing
@testable import Upstream

/// Thread-safe counters and records for fixture handlers and test sleepers.
final class Tally: Sendable {
    private let state = Lock<(count: Int, delays: [Duration])>((0, []))
    /// Counts a call; returns its number, starting at 1.
    func next() -> Int { state.withLock { $0.count += 1; return $0.count } }
    func record(_ delay: Duration) { state.withLock { $0.delays.append(delay) } }
    var delays: [Duration] { state.withLock { $0.delays } }
}

/// Retries, Retry-After, and the checks that turn bad upstream answers into clear errors: in-process, but for gzip
/// (libcurl decodes it and caps the decoded body: the wire is the point).
@Suite struct PageResilienceTests {
    static func source(_ server: InProcessUpstream, retry: RetryPolicy = .never,
                       checks: PageChecks = PageChecks(), method: String = "GET") throws -> PageSource<JSONValue> {
        try source(server.baseURL, server, retry: retry, checks: checks, method: method)
    }

    /// Over the wire, for what libcurl does (gzip decoding, the body cap).
    static func source(_ server: FixtureServer, _ client: UpstreamClient) throws -> PageSource<JSONValue> {
        try source(server.baseURL, client)
    }

    static func source(_ base: String, _ transport: any UpstreamTransport, retry: RetryPolicy = .never,
                       checks: PageChecks = PageChecks(), method: String = "GET") throws -> PageSource<JSONValue> {
        var template = PageRequestTemplate(url: base + "/items")
        template.method = method
        return PageSource<JSONValue>(client: transport, template: template, itemsPath: try JSONPath("data"),
                          style: .cursor(parameter: "cursor", nextCursorPath: try JSONPath("next")), checks: checks, retry: retry)
    }

    /// A policy that records its waits instead of sleeping.
    static func recordingPolicy(_ tally: Tally, attempts: Int = 3) -> RetryPolicy {
        var policy = RetryPolicy()
        policy.maxAttempts = attempts
        policy.sleep = { tally.record($0) }
        return policy
    }

    static let goodPage = "{\"data\":[{\"id\":1}],\"next\":null}"

    @Test func tooManyRequestsHonoursRetryAfterSeconds() async throws {
        let calls = Tally(), waits = Tally()
        let server = InProcessUpstream { _ in
            calls.next() == 1
                ? .respond(status: 429, headers: [("Retry-After", "2")], body: Array("slow down".utf8))
                : .json(Self.goodPage)
        }
        defer { server.stop() }

        let page = try await Self.source(server, retry: Self.recordingPolicy(waits)).fetchPage(cursor: nil)

        #expect(page.items.count == 1)
        #expect(server.requests.count == 2)
        #expect(waits.delays == [.seconds(2)])
    }

    @Test func serviceUnavailableThenSuccessBacksOffWithinTheCaps() async throws {
        let calls = Tally(), waits = Tally()
        let server = InProcessUpstream { _ in calls.next() <= 2 ? .json("{}", status: 503) : .json(Self.goodPage) }
        defer { server.stop() }
        var policy = Self.recordingPolicy(waits)
        policy.baseDelay = .milliseconds(100)

        _ = try await Self.source(server, retry: policy).fetchPage(cursor: nil)

        #expect(server.requests.count == 3)
        #expect(waits.delays.count == 2)
        #expect(waits.delays[0] <= .milliseconds(100) && waits.delays[1] <= .milliseconds(200))
    }

    @Test func attemptsAreBounded() async throws {
        let waits = Tally()
        let server = InProcessUpstream { _ in .json("{}", status: 500) }
        defer { server.stop() }

        await #expect(throws: UpstreamError.httpStatus(500)) {
            try await Self.source(server, retry: Self.recordingPolicy(waits, attempts: 4)).fetchPage(cursor: nil)
        }
        #expect(server.requests.count == 4)
    }

    @Test func aRetryAfterBeyondTheLimitIsNotWaitedFor() async throws {
        let waits = Tally()
        let server = InProcessUpstream { _ in .respond(status: 429, headers: [("Retry-After", "3600")], body: []) }
        defer { server.stop() }

        await #expect(throws: UpstreamError.httpStatus(429)) {
            try await Self.source(server, retry: Self.recordingPolicy(waits)).fetchPage(cursor: nil)
        }
        #expect(server.requests.count == 1)
        #expect(waits.delays.isEmpty)
    }

    @Test(arguments: [false, true])
    func postIsRetriedOnlyWhenTheConfigSaysSo(allowed: Bool) async throws {
        let calls = Tally(), waits = Tally()
        let server = InProcessUpstream { _ in calls.next() == 1 ? .json("{}", status: 503) : .json(Self.goodPage) }
        defer { server.stop() }
        var policy = Self.recordingPolicy(waits)
        policy.retryNonIdempotent = allowed
        let source = try Self.source(server, retry: policy, method: "POST")

        if allowed {
            #expect(try await source.fetchPage(cursor: nil).items.count == 1)
        } else {
            await #expect(throws: UpstreamError.httpStatus(503)) { try await source.fetchPage(cursor: nil) }
        }
        #expect(server.requests.count == (allowed ? 2 : 1))
    }

    @Test func anHTMLErrorPageIsAClearError() async throws {
        let html = Array("<html><body><h1>502 Bad Gateway</h1></body></html>".utf8)
        let server = InProcessUpstream { request in
            .respond(status: request.query["cursor"] == nil ? 502 : 200, headers: [("Content-Type", "text/html")], body: html)
        }
        defer { server.stop() }
        let source = try Self.source(server)

        await #expect(throws: UpstreamError.httpStatus(502)) { try await source.fetchPage(cursor: nil) }
        await #expect(throws: UpstreamError.invalidPage("the body is not JSON (text/html)")) {
            try await source.fetchPage(cursor: "x")
        }
    }

    @Test func http200WithAnErrorBody() async throws {
        let server = InProcessUpstream { _ in .json("{\"ok\":false,\"error\":\"invalid_auth\"}") }
        defer { server.stop() }
        var byError = PageChecks()
        byError.errorPath = try JSONPath("error")
        var byOK = byError
        byOK.okPath = try JSONPath("ok")

        await #expect(throws: UpstreamError.invalidPage("the upstream reported an error: invalid_auth")) {
            try await Self.source(server, checks: byError).fetchPage(cursor: nil)
        }
        await #expect(throws: UpstreamError.invalidPage("the upstream reported an error ('ok' is not true): invalid_auth")) {
            try await Self.source(server, checks: byOK).fetchPage(cursor: nil)
        }
    }

    @Test func gzipPagesAreDecoded() async throws {
        let gzip = try #require(Data(base64Encoded: "H4sIAFzkDGsC/6tWSkksSVSyiq5WykxRsjKs1YEwjGpjdZTyUitK4pNLi4rzi5Ss8kpzcmoB+gYayC8AAAA="))
        let server = try FixtureServer { _ in
            .respond(status: 200, headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], body: [UInt8](gzip))
        }
        defer { server.stop() }
        let client = try UpstreamClient()
        defer { client.shutdown() }

        let page = try await Self.source(server, client).fetchPage(cursor: nil)

        #expect(page.items.map { $0["id"] } == [.int(1), .int(2)])
        #expect(server.requests.first?.header("accept-encoding")?.contains("gzip") == true)
    }

    @Test func anOversizedGzipPageIsStoppedAtTheCap() async throws {
        // 350 compressed bytes that expand to 300 kB: the cap applies after decompression.
        let bomb = "H4sIAFzkDGsC/+3BMQ3AIBQFQCvNm6sAKw3DTxDAwNbgHR/k7v6MWpX29TezRloeAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAC4SPYBFcqW7PSTBAA="
        let body = try #require(Data(base64Encoded: bomb))
        let server = try FixtureServer { _ in
            .respond(status: 200, headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], body: [UInt8](body))
        }
        defer { server.stop() }
        var configuration = UpstreamClientConfiguration()
        configuration.maxBodyBytes = 64 * 1024
        let client = try UpstreamClient(configuration: configuration)
        defer { client.shutdown() }

        await #expect(throws: UpstreamError.bodyTooLarge) { try await Self.source(server, client).fetchPage(cursor: nil) }
    }
}
