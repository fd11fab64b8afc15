import Foundation
import TestSupport
import Testing

/// The `rowstream` executable as an operator runs it: flags, the banner, SIGTERM.
@Suite("rowstream executable")
struct ExecutableTests {
    /// The executable sits beside the test bundle in the build folder (`swift build --build-tests` builds both).
    private static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rowstream")
    }

    @Test("SIGTERM closes open streams and exits 0 within a bounded time")
    func sigtermShutsDownGracefully() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path), "build the rowstream product first")
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["--port", "0", "--demo-items", "300", "--demo-latency-ms", "0", "--public", publicDirectory]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        let banner = try await offPool { () -> String in
            let data = output.fileHandleForReading.availableData   // the banner is one write
            return String(decoding: data, as: UTF8.self)
        }
        let port = try #require(Int(banner.split(separator: ":")[2].prefix { $0.isNumber }), "banner: \(banner)")
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
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path))
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["--port", "banana"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = try await offPool { () -> String in
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        #expect(process.terminationStatus == 64)
        #expect(message.contains("--port"))
    }
}
