import Foundation
import TestSupport
import Testing

/// The `rowstream` executable as an operator runs it: flags, the banner, SIGTERM.
@Suite("rowstream executable")
struct ExecutableTests {
    @Test("SIGTERM closes open streams and exits 0 within a bounded time")
    func sigtermShutsDownGracefully() async throws {
        try #require(RowstreamProcess.isBuilt, "build the rowstream product first")
        let process = Process()
        process.executableURL = RowstreamProcess.executable
        process.arguments = ["--port", "0", "--demo-items", "300", "--demo-latency-ms", "0", "--public", publicDirectory]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        // The banner, read to its newline (a pipe may hand it over in pieces); a missing or cut banner fails this
        // test alone.
        let banner = try await offPool { RowstreamProcess.firstLine(of: output) }
        let port = try #require(RowstreamProcess.port(inBanner: banner), "banner: \(banner)")
        let stream = try await SSEClient(port: port, path: "/tables/customers/stream")
        _ = try await stream.next(named: "rows")

        kill(process.processIdentifier, SIGTERM)
        #expect(try await stream.next() == nil, "the open stream is closed")
        let exited = try await offPool { () -> Bool in
            for _ in 0..<200 where process.isRunning { usleep(50_000) }   // at most 10 s
            return !process.isRunning
        }
        #expect(exited)
        if exited { #expect(process.terminationStatus == 0) }
    }

    @Test("bad flags exit 64 with a message naming the flag")
    func badFlags() async throws {
        try #require(RowstreamProcess.isBuilt, "build the rowstream product first")
        let (status, _, message) = try await RowstreamProcess.run(["--port", "banana"])
        #expect(status == 64)
        #expect(message.contains("--port"))
    }
}
