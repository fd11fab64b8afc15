import Foundation
import Glibc
import TestSupport
import Testing

/// Debian's redis-server for the cluster tests: on a unix socket in a temporary folder, no TCP port (`--port 0`),
/// nothing on disk (`--save '' --appendonly no`), its log in the folder. Stopped by its PID (`stop()`).
struct RedisProcess: Sendable {
    let process: SpawnedProcess
    /// Its folder, and the socket's path in it.
    let folder: URL, socket: String
    /// The URL rowstream's `--redis` takes.
    var url: String { "unix://" + socket }

    /// Starts redis-server and returns once its socket exists (bounded: 30 s).
    static func start() async throws -> RedisProcess {
        let folder = URL(fileURLWithPath: "/tmp/rowstream-redis-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try await start(in: folder)
    }

    /// A new redis-server (empty) on this one's socket, once this one has exited (`kill()`): Redis restarted.
    func restart() async throws -> RedisProcess {
        try await Self.start(in: folder)
    }

    private static func start(in folder: URL) async throws -> RedisProcess {
        let executable = "/usr/bin/redis-server"
        try #require(FileManager.default.isExecutableFile(atPath: executable), "install redis-server (Debian's)")
        let socket = folder.appendingPathComponent("redis.sock").path
        let process = try SpawnedProcess(executable, [
            "--port", "0", "--unixsocket", socket, "--unixsocketperm", "700", "--save", "", "--appendonly", "no",
            "--dir", folder.path, "--logfile", folder.appendingPathComponent("redis.log").path,
        ], environment: [:])
        let redis = RedisProcess(process: process, folder: folder, socket: socket)
        guard await eventually(timeout: .seconds(30), { FileManager.default.fileExists(atPath: socket) }) else {
            await redis.stop()
            throw TestConnection.Failure(description: "redis-server did not open \(socket)")
        }
        return redis
    }

    /// Kills it (SIGKILL: Redis gone at once, as a crash) and waits (bounded) for it to exit.
    func kill() async {
        process.send(SIGKILL)
        try? await offPool { try process.waitUntilExit(within: .seconds(20)) }
    }

    /// Stops it (SIGTERM; SIGKILL past 20 s), waits for it and removes its folder.
    func stop() async {
        await process.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
