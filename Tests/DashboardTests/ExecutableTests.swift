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

    @Test("bad flags exit 64 with a message naming the flag")
    func badFlags() async throws {
        try #require(RowstreamProcess.isBuilt, "build the rowstream product first")
        let (status, _, message) = try await RowstreamProcess.run(["--port", "banana"])
        #expect(status == 64)
        #expect(message.contains("--port"))
    }
}
