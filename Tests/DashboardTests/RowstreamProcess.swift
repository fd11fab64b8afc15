import Foundation
import TestSupport

/// The `rowstream` executable as the tests run it: beside the test bundle in the build folder
/// (`swift build --build-tests` builds both). Every wait is bounded; a process is killed by its PID.
enum RowstreamProcess {
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rowstream")
    }

    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: executable.path) }

    /// Whether the built rowstream lists `option` in its `--help` (for a test of a flag another slice adds). Blocks
    /// briefly: for a test trait, evaluated once.
    static func hasOption(_ option: String) -> Bool {
        guard isBuilt, let process = try? SpawnedProcess(executable.path, ["--help"], environment: [:]) else {
            return false
        }
        defer { process.send(SIGKILL) }
        let help = String(decoding: process.output.readDataToEndOfFile(), as: UTF8.self)
        try? process.waitUntilExit()
        return help.contains(option + " ")
    }

    /// Runs rowstream to its end (killed after `limit`); returns its status, stdout and stderr. Both pipes are read
    /// at once, so a process filling one while the test waits on the other cannot deadlock.
    static func run(_ arguments: [String], environment: [String: String] = [:],
                    limit: Duration = .seconds(60)) async throws -> (status: Int32, output: String, errors: String) {
        let process = try launch(arguments, environment: environment)
        defer { process.send(SIGKILL) }
        let watchdog = DispatchWorkItem { process.send(SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Int(limit.components.seconds)), execute: watchdog)
        defer { watchdog.cancel() }
        async let out = offPool { process.output.readDataToEndOfFile() }
        async let err = offPool { process.errors.readDataToEndOfFile() }
        let (outData, errData) = try await (out, err)
        try await offPool { try process.waitUntilExit(within: limit) }
        return (process.terminationStatus ?? -1, String(decoding: outData, as: UTF8.self),
                String(decoding: errData, as: UTF8.self))
    }

    /// Starts rowstream with `arguments` (the environment plus `environment`), its stdout and stderr on pipes.
    private static func launch(_ arguments: [String], environment: [String: String]) throws -> SpawnedProcess {
        try SpawnedProcess(executable.path, arguments,
                           environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
    }

    /// Starts a rowstream server (`arguments` should include `--port 0`) and reads its banner for the port. Its
    /// stderr is drained from the start and the rest of its stdout after the banner, so it never blocks writing
    /// either. The caller stops it by its PID: `defer { server.kill() }`, and `terminate()` to test a shutdown.
    static func start(_ arguments: [String], environment: [String: String] = [:]) async throws -> Server {
        let process = try launch(arguments, environment: environment)
        let standardError = Task {
            try await offPool { String(decoding: process.errors.readDataToEndOfFile(), as: UTF8.self) }
        }
        // The banner, read to its newline (a pipe may hand it over in pieces); a missing or cut one fails the test.
        // Bounded: a process that says nothing for `bannerLimit` is killed, which ends the read (its pipe closes).
        let watchdog = DispatchWorkItem { process.send(SIGKILL) }
        let seconds = Int((bannerLimit * TestTime.scale).components.seconds)
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds), execute: watchdog)
        let banner = try await offPool { firstLine(of: process.output) }
        watchdog.cancel()
        Task { _ = try await offPool { process.output.readDataToEndOfFile() } }
        guard let port = port(inBanner: banner) else {
            process.send(SIGKILL)
            throw TestConnection.Failure(description: "no port in the banner (killed after \(bannerLimit) × "
                                         + "\(TestTime.scale) without one?): \(banner)")
        }
        return Server(process: process, port: port, standardError: standardError)
    }

    /// How long a started server may take to print its banner (× `TestTime.scale`).
    static let bannerLimit: Duration = .seconds(60)

    /// A rowstream server a test started (`start`). Every wait is bounded; signals go to its PID.
    struct Server: Sendable {
        let process: SpawnedProcess
        /// The port its banner names.
        let port: Int
        fileprivate let standardError: Task<String, any Error>

        /// Asks it to shut down (SIGTERM).
        func terminate() { process.send(SIGTERM) }

        /// Kills it (SIGKILL) if it still runs.
        func kill() { process.send(SIGKILL) }

        /// Its exit status once it has exited within `limit`, or nil while it still runs.
        func exitStatus(within limit: Duration) async -> Int32? {
            guard await eventually(timeout: limit, { !process.isRunning }) else { return nil }
            return process.terminationStatus
        }

        /// Everything it wrote to stderr, once it has exited (stop it first); killed if it still runs after `limit`.
        func errors(within limit: Duration = .seconds(60)) async throws -> String {
            if await exitStatus(within: limit) == nil { kill() }
            return try await standardError.value
        }
    }

    /// Writes `text` to a new file in the temporary folder (a config for `--config`); returns its path. The caller
    /// removes it.
    static func temporaryFile(_ text: String) throws -> String {
        let name = "rowstream-\(UUID().uuidString).json"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Reads `handle` up to the first newline (the banner), or to its end; at most 64 KiB. Blocks: call off the pool.
    static func firstLine(of handle: FileHandle) -> String {
        var bytes = Data()
        while bytes.count < 65_536, !bytes.contains(10) {
            let chunk = handle.availableData
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
