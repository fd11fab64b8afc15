import Foundation
import TestSupport
import Testing

/// The `rowstream` executable as an operator runs it: flags, the banner, SIGTERM.
@Suite("rowstream executable")
struct ExecutableTests {
    @Test("SIGTERM closes open streams and exits 0 within a bounded time")
    func sigtermShutsDownGracefully() async throws {
        try #require(RowstreamProcess.isBuilt, "build the rowstream product first")
        let server = try await RowstreamProcess.start(
            ["--port", "0", "--demo-items", "300", "--demo-latency-ms", "0", "--public", publicDirectory])
        defer { server.kill() }
        let stream = try await SSEClient(port: server.port, path: "/tables/customers/stream")
        _ = try await stream.next(named: "rows")

        server.terminate()
        #expect(try await stream.next() == nil, "the open stream is closed")
        let status = await server.exitStatus(within: .seconds(10))
        #expect(status != nil, "exited")
        if let status { #expect(status == 0) }
    }

    @Test("SIGTERM drains: new connections refused, each stream gets its own retry within --drain-seconds and closes, exit 0")
    func sigtermDrainsWithSpreadRetries() async throws {
        try #require(RowstreamProcess.isBuilt, "build the rowstream product first")
        let server = try await RowstreamProcess.start(
            ["--port", "0", "--demo-items", "300", "--demo-latency-ms", "0", "--public", publicDirectory,
             "--drain-seconds", "6", "--instance-tag", "10"])
        defer { server.kill() }
        var streams: [SSEClient] = []
        for _ in 0..<6 {
            let stream = try await SSEClient(port: server.port, path: "/tables/customers/stream")
            let (_, before) = try await stream.next(named: "rows")
            let session = try #require(before.first { $0.event == "session" })
            #expect(session.data.contains("\"session\":\"0a"), "--instance-tag 10 leads the id: \(session.data)")
            streams.append(stream)
        }

        server.terminate()
        var hints: [Int] = []
        for stream in streams {
            try await stream.untilClosed()   // to the server's close
            if let retry = stream.retryMilliseconds { hints.append(retry) }
        }
        #expect(hints.count == streams.count)
        #expect(hints.allSatisfy { (1...6_000).contains($0) }, "within the window: \(hints)")
        #expect(Set(hints).count > 1, "each stream its own delay, not the stream's retry: 2000 for all: \(hints)")
        #expect((try? TestConnection(port: server.port)) == nil, "no new connection is accepted")
        let status = await server.exitStatus(within: .seconds(10))
        #expect(status == 0)
    }

    @Test("a second SIGTERM exits at once (143) while the first drain still waits for an answer in flight")
    func secondSigtermExitsAtOnce() async throws {
        try #require(RowstreamProcess.isBuilt, "build the rowstream product first")
        let gate = ReplyGate()   // holds the upstream page, so the JSON proxy's answer stays in flight
        let upstream = try FixtureServer { _ in .held(gate, .json(#"{"results": [{"id": 1}]}"#)) }
        defer {
            gate.releaseAll()
            upstream.stop()
        }
        let path = try RowstreamProcess.temporaryFile("""
            {"tables": [{"name": "held", "request": {"url": "http://127.0.0.1:\(upstream.port)/v1/held",
              "timeoutSeconds": 300}, "items": "results", "key": "id", "columns": [{"path": "id"}],
              "pagination": {"style": "offset"}}]}
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try await RowstreamProcess.start(
            ["--port", "0", "--config", path, "--public", publicDirectory, "--shutdown-grace-seconds", "600"])
        defer { server.kill() }
        let inFlight = try TestConnection(port: server.port)
        try inFlight.send("GET /api/tables/held/pages HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await eventually { gate.waiting == 1 })

        server.terminate()
        #expect(await eventually { (try? TestConnection(port: server.port)) == nil }, "draining: refused")
        #expect(server.process.isRunning, "the first drain waits for the held answer (grace 600 s)")
        server.terminate()
        #expect(await server.exitStatus(within: .seconds(30)) == 128 + SIGTERM)
    }

    @Test("bad flags exit 64 with a message naming the flag")
    func badFlags() async throws {
        try #require(RowstreamProcess.isBuilt, "build the rowstream product first")
        let (status, _, message) = try await RowstreamProcess.run(["--port", "banana"])
        #expect(status == 64)
        #expect(message.contains("--port"))
    }
}
