import Foundation
import TestSupport

/// The `rowstream` executable as the tests run it: beside the test bundle in the build folder
/// (`swift build --build-tests` builds both). Every wait is bounded; a process is killed by its PID.
enum RowstreamProcess {
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rowstream")
    }

    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: executable.path) }

    /// Runs rowstream to its end (killed after `limit`); returns its status, stdout and stderr. Both pipes are read
    /// at once, so a process filling one while the test waits on the other cannot deadlock.
    static func run(_ arguments: [String], environment: [String: String] = [:],
                    limit: Duration = .seconds(60)) async throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let pid = process.processIdentifier
        defer { if process.isRunning { kill(pid, SIGKILL) } }
        let watchdog = DispatchWorkItem { if process.isRunning { kill(pid, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Int(limit.components.seconds)), execute: watchdog)
        defer { watchdog.cancel() }
        async let out = offPool { output.fileHandleForReading.readDataToEndOfFile() }
        async let err = offPool { errors.fileHandleForReading.readDataToEndOfFile() }
        let (outData, errData) = try await (out, err)
        try await offPool { process.waitUntilExit() }
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// Reads `pipe` up to the first newline (the banner), or to its end; at most 64 KiB. Blocks: call off the pool.
    static func firstLine(of pipe: Pipe) -> String {
        var bytes = Data()
        while bytes.count < 65_536, !bytes.contains(10) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            bytes += chunk
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The port in a `Rowstream serving http://host:port/ (...)` banner, or nil.
    static func port(inBanner banner: String) -> Int? {
        guard let range = banner.range(of: "http://") else { return nil }
        let rest = banner[range.upperBound...]
        guard let slash = rest.firstIndex(of: "/"), let colon = rest[..<slash].lastIndex(of: ":") else { return nil }
        return Int(rest[rest.index(after: colon)..<slash])
    }
}
