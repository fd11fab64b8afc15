import Testing
@testable import Upstream

/// What errors say and whether they are worth retrying.
@Suite struct UpstreamErrorTests {
    @Test func retryableErrors() {
        let retryable: [UpstreamError] = [.timedOut, .connectionFailed, .connectionLost, .httpStatus(500), .httpStatus(503), .httpStatus(429)]
        let final: [UpstreamError] = [
            .httpStatus(400), .httpStatus(404), .httpStatus(401), .invalidPage("x"), .bodyTooLarge,
            .protocolNotAllowed, .invalidURL, .cancelled, .shutdown, .invalidRequest, .tooManyRedirects,
        ]
        #expect(retryable.allSatisfy { $0.isRetryable })
        #expect(final.allSatisfy { !$0.isRetryable })
    }

    @Test func equalityFollowsTheCodeAndItsPayload() {
        #expect(UpstreamError.httpStatus(500) == .httpStatus(500))
        #expect(UpstreamError.httpStatus(500) != .httpStatus(502))
        #expect(UpstreamError.invalidPage("a") != .invalidPage("b"))
        #expect(UpstreamError.timedOut != .connectionFailed)
        #expect(UpstreamError.httpStatus(418).httpStatusCode == 418)
        #expect(UpstreamError.httpStatus(418).description.contains("418"))
    }

    @Test func descriptionsOfRealFailuresHideTheQueryCredentialsAndHeaders() async throws {
        let server = try FixtureServer { request in
            switch request.path {
            case "/hang": return .hang
            case "/cut": return .closeMidBody(declared: 100, sent: 1)
            default: return .redirect(to: "gopher://127.0.0.1:1/?token=SECRETQUERY")
            }
        }
        defer { server.stop() }
        let client = try UpstreamClient()
        defer { client.shutdown() }
        let authority = "http://alice:PASSWORD@127.0.0.1:\(server.port)"

        var errors: [UpstreamError] = []
        for path in ["/hang", "/cut", "/jump"] {
            var request = UpstreamRequest(url: authority + path + "?api_key=SECRETQUERY")
            request.headers = [("Authorization", "Bearer TOKENVALUE")]
            // The hang is the one fault a timeout should meet; the others get a minute, so a busy machine
            // cannot turn a cut body or a refused redirect into a timeout.
            request.timeout = path == "/hang" ? .seconds(1) : .seconds(60)
            do {
                _ = try await client.fetch(request)
            } catch {
                errors.append(error)
            }
        }

        #expect(errors == [.timedOut, .connectionLost, .protocolNotAllowed])
        #expect(server.requests.first?.header("authorization") == "Bearer TOKENVALUE")
        for error in errors {
            for secret in ["SECRETQUERY", "api_key", "PASSWORD", "alice", "TOKENVALUE", "127.0.0.1"] {
                #expect(!error.description.contains(secret), "\(error) leaks \(secret)")
            }
        }
    }
}
