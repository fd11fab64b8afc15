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
            while try await stream.next() != nil {}   // to the server's close
            if let retry = stream.retryMilliseconds { hints.append(retry) }
        }
        #expect(hints.count == streams.count)
        #expect(hints.allSatisfy { (1...6_000).contains($0) }, "within the window: \(hints)")
        #expect(Set(hints).count > 1, "each stream its own delay, not the stream's retry: 2000 for all: \(hints)")
        #expect((try? TestConnection(port: server.port)) == nil, "no new connection is accepted")
        let status = await server.exitStatus(within: .seconds(10))
        #expect(status == 0)
    }

    @Test("bad flags exit 64 with a message naming the flag")
    func badFlags() async throws {
        try #require(RowstreamProcess.isBuilt, "build the rowstream product first")
        let (status, _, message) = try await RowstreamProcess.run(["--port", "banana"])
        #expect(status == 64)
        #expect(message.contains("--port"))
    }
}
