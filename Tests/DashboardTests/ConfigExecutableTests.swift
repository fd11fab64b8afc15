import Foundation
import TestSupport
import Testing

/// `rowstream --config` and `--check-config` as an operator runs them.
@Suite("rowstream with a config file")
struct ConfigExecutableTests {
    /// Runs rowstream to its end; returns its status, stdout and stderr.
    private func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> (Int32, String, String) {
        try #require(RowstreamProcess.isBuilt, "build the rowstream product first")
        return try await RowstreamProcess.run(arguments, environment: environment)
    }

    @Test("an invalid config exits 1 with the file, the key path and what was expected")
    func invalidConfigExits() async throws {
        let path = try RowstreamProcess.temporaryFile(#"{"tables": [{"name": "x", "nmae": "typo"}]}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, _, errors) = try await run(["--config", path, "--port", "0"])
        #expect(status == 1)
        #expect(errors.contains("\(path): tables[0]."), "\(errors)")
    }

    @Test("--check-config fetches each first page and prints items, next and columns, never the secret")
    func checkConfigReports() async throws {
        let secret = "exe-secret-99"
        let upstream = try ConfigFixtureUpstream(count: 12, token: secret)
        defer { upstream.stop() }
        let path = try RowstreamProcess.temporaryFile(upstream.config())
        defer { try? FileManager.default.removeItem(atPath: path) }

        let (status, output, errors) = try await run(["--check-config", path], environment: ["FIXTURE_TOKEN": secret])

        #expect(status == 0, "\(output)\(errors)")
        #expect(output.contains("table things (\"Things\"):"))
        #expect(output.contains("items: 5 (5 distinct keys at 'id')"))
        #expect(output.contains("next: cursor 5"))
        #expect(output.contains("ID [id] = 1") && output.contains("Name [name] = \"thing 1\""))
        #expect(!output.contains(secret) && !errors.contains(secret))

        let (failed, failedOutput, _) = try await run(["--check-config", path], environment: ["FIXTURE_TOKEN": "wrong"])
        #expect(failed == 1)
        #expect(failedOutput.contains("first page FAILED: the upstream answered HTTP 403"))
    }

    @Test("a secret the upstream echoes (its URL and headers, re-encoded) is redacted from output and errors")
    func checkConfigRedactsEchoedSecrets() async throws {
        let secret = "s3cr3t+T0ken/with=chars&x y"
        let upstream = try ConfigFixtureUpstream(count: 5, token: secret)
        defer { upstream.stop() }
        let config = upstream.config()
            .replacingOccurrences(of: #"/v1/things", "headers""#,
                                  with: #"/v1/echo-all", "query": {"api_key": "${FIXTURE_TOKEN}"}, "headers""#)
            .replacingOccurrences(of: "\"cache\": {", with: "\"checks\": {\"errorPath\": \"error\"}, \"cache\": {")
        let path = try RowstreamProcess.temporaryFile(config)
        defer { try? FileManager.default.removeItem(atPath: path) }

        let (status, output, errors) = try await run(["--check-config", path], environment: ["FIXTURE_TOKEN": secret])
        #expect(status == 1)
        #expect(output.contains("first page FAILED: the upstream's page is not valid: the upstream reported an error: "
                                + "no access for GET /v1/echo-all?api_key=[redacted]"), "\(output)")
        for form in ["T0ken", "with%3D", "with%3d", "VDBrZW4"] {
            #expect(!output.contains(form) && !errors.contains(form), "\(form) in \(output)\(errors)")
        }
    }
}
