import Foundation
import TestSupport
import Testing

/// docs/SECURITY.md, "Each viewer's own upstream credentials": a forwarded header's or cookie's value never reaches
/// the server's log nor `/metrics`, even when the upstream echoes it back in an error. Runs the `rowstream` binary
/// (access mode `none` on loopback), forwards good and echoed credentials through a header and a cookie, stops the
/// server and reads everything it wrote to stderr.
@Suite("Forwarded credentials never in the server's log")
struct ViewerCredentialsLogTests {
    static let good = "fwd-good-credential-4711"
    static let echoed = "fwd-echoed-credential-0815"

    @Test func standardErrorAndMetricsNeverHoldAForwardedValue() async throws {
        // Rows for the good credential; for any other, an HTTP-200 error that echoes what it got.
        let upstream = try FixtureServer { request in
            let presented = request.header("X-Api-Key") ?? request.query["session"] ?? ""
            guard presented == Self.good else {
                return .json("{\"error\": \"credential not valid: \(presented)\"}")
            }
            return .json("{\"results\": [{\"id\": 1, \"name\": \"mine\"}]}")
        }
        defer { upstream.stop() }
        func table(_ name: String, _ forward: String) -> String {
            """
            {"name": "\(name)", "request": {"url": "http://127.0.0.1:\(upstream.port)/v1/rows"}, "forward": \(forward),
             "items": "results", "key": "id", "columns": [{"path": "name"}], "checks": {"errorPath": "error"},
             "pagination": {"style": "offset"}, "retry": {"attempts": 1}}
            """
        }
        let config = """
            {"tables": [\(table("mine", "{\"headers\": {\"X-Api-Key\": \"${viewer.header.X-Upstream-Key}\"}}")),
                        \(table("cookied", "{\"query\": {\"session\": \"${viewer.cookie.upstream_session}\"}}"))]}
            """
        let path = try RowstreamProcess.temporaryFile(config)
        defer { try? FileManager.default.removeItem(atPath: path) }

        try #require(RowstreamProcess.isBuilt, "build the rowstream product first")
        let server = try await RowstreamProcess.start(["--config", path, "--port", "0", "--public", publicDirectory])
        defer { server.kill() }
        let port = server.port

        for credential in [Self.good, Self.echoed] {
            let header = try await fetch(port, "GET", "/api/tables/mine/pages", headers: ["X-Upstream-Key": credential])
            let cookie = try await fetch(port, "GET", "/api/tables/cookied/pages",
                                         headers: ["Cookie": "upstream_session=\(credential)"])
            for response in [header, cookie] {
                #expect(response.status == (credential == Self.good ? 200 : 502), "\(response.status): \(response.body)")
                #expect(!response.body.contains(Self.echoed), "the viewer's own credential is redacted too")
            }
        }
        #expect(upstream.requests.count == 4)
        #expect(try await fetch(port, "GET", "/api/tables/mine/pages").status == 403)
        let metrics = try await fetch(port, "GET", "/metrics")
        #expect(metrics.status == 200)
        #expect(!metrics.body.contains(Self.good) && !metrics.body.contains(Self.echoed))

        server.terminate()
        let logged = try await server.errors()
        #expect(logged.contains("[redacted]"), "the failures were logged: \(logged)")
        #expect(!logged.contains(Self.good) && !logged.contains(Self.echoed), "\(logged)")
    }
}
