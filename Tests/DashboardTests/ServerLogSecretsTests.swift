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
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rowstream-\(UUID().uuidString).json").path
        try Data(config.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("rowstream")
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "build the rowstream product first")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--config", path, "--port", "0", "--public", publicDirectory]
        process.environment = ProcessInfo.processInfo.environment.merging(["FIXTURE_TOKEN": Self.secret]) { $1 }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let pid = process.processIdentifier
        defer { if process.isRunning { kill(pid, SIGKILL) } }
        // stderr is drained from the start on a thread of its own, so the server can never block writing it.
        let stderrText = Task { try await offPool { String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) } }
        let banner = try await offPool { () -> String in
            var line = Data()
            while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
                line += byte
            }
            return String(decoding: line, as: UTF8.self)
        }
        let port = try #require(banner.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression)
            .flatMap { Int(banner[$0].split(separator: ":").last ?? "") }, "\(banner)")

        let stream = try await SSEClient(port: port, path: "/tables/echo/stream", timeoutSeconds: 30)
        let error = try await stream.next(named: "error").event
        #expect(error.data.contains("[redacted]"), "\(error.data)")
        #expect(try await fetch(port, "GET", "/api/tables/echo/pages").status == 502)

        kill(pid, SIGTERM)
        let logged = try await stderrText.value
        _ = try await offPool { process.waitUntilExit() }
        #expect(logged.contains("[redacted]"), "the failures were logged: \(logged)")
        #expect(!logged.contains(Self.secret), "\(logged)")
    }
}
