import Foundation
import TestSupport
import Testing

/// docs/CONFIG.md "Secrets": values from the environment never reach a log line. Runs the `rowstream` binary
/// with a secret in a header and a query parameter, makes the upstream echo it in an error (shown through
/// `errorPath`) on both the stream and the JSON proxy, stops the server and reads everything it wrote to stderr.
@Suite("Secrets never in the server's log")
struct ServerLogSecretsTests {
    static let secret = "log-secret-5150"

    @Test func standardErrorNeverHoldsASecret() async throws {
        let upstream = try ConfigFixtureUpstream(count: 5, token: Self.secret)
        defer { upstream.stop() }
        let config = """
            {"tables": [{"name": "echo", "batchSize": 5,
              "request": {"url": "http://127.0.0.1:\(upstream.port)/v1/echo", "query": {"api_key": "${FIXTURE_TOKEN}"},
                          "headers": {"Authorization": "Bearer ${FIXTURE_TOKEN}"}},
              "items": "results", "columns": [{"path": "name"}], "checks": {"errorPath": "error"},
              "pagination": {"style": "offset"}}]}
            """
        let path = try RowstreamProcess.temporaryFile(config)
        defer { try? FileManager.default.removeItem(atPath: path) }

        try #require(RowstreamProcess.isBuilt, "build the rowstream product first")
        let server = try await RowstreamProcess.start(["--config", path, "--port", "0", "--public", publicDirectory],
                                                      environment: ["FIXTURE_TOKEN": Self.secret])
        defer { server.kill() }
        let port = server.port

        let stream = try await SSEClient(port: port, path: "/tables/echo/stream", timeoutSeconds: 30)
        let error = try await stream.next(named: "error").event
        #expect(error.data.contains("[redacted]"), "\(error.data)")
        #expect(try await fetch(port, "GET", "/api/tables/echo/pages").status == 502)

        server.terminate()
        let logged = try await server.errors()
        #expect(logged.contains("[redacted]"), "the failures were logged: \(logged)")
        #expect(!logged.contains(Self.secret), "\(logged)")
    }
}
