import Foundation
import Glibc
import TestSupport

/// nginx (Debian's) in the foreground over rowstream instances, with the config Scripts/cluster uses
/// (Scripts/lib/nginx-cluster.sh), every file in a temporary folder. Stopped by its PID (`stop()`: SIGTERM, the
/// master ends its workers, then waited for; SIGKILL only past the bound).
struct NginxProcess: Sendable {
    static let executable = "/usr/sbin/nginx"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    let process: SpawnedProcess
    /// Its port on 127.0.0.1.
    let port: Int
    let folder: URL

    /// Starts nginx in front of the instances on `ports` (instance i runs with `--instance-tag i`) and returns once
    /// it accepts connections. nginx cannot listen on port 0 and say which it got: a free port is picked and, if
    /// another process takes it first, the next one (at most 5 tries).
    /// `roundRobin`: one plain round-robin upstream for every request (`nginx_cluster_conf --round-robin`).
    static func start(over ports: [Int], roundRobin: Bool = false) async throws -> NginxProcess {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowstream-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("nginx-tmp"),
                                                withIntermediateDirectories: true)
        for _ in 0..<5 {
            let port = try FreePort.reserve()
            let config = try await configuration(folder: folder.path, port: port, over: ports, roundRobin: roundRobin)
            let file = folder.appendingPathComponent("nginx.conf")
            try Data(config.utf8).write(to: file)
            let process = try SpawnedProcess(executable, ["-c", file.path, "-e", folder.path + "/nginx-error.log"],
                                             environment: [:])
            let nginx = NginxProcess(process: process, port: port, folder: folder)
            let listening = await eventually(timeout: .seconds(30)) {
                !process.isRunning || (try? TestConnection(port: port)) != nil
            }
            if listening, process.isRunning { return nginx }
            await nginx.stop()   // exited: most likely the port was taken meanwhile
        }
        throw TestConnection.Failure(description: "nginx did not start: \(errorLog(folder))")
    }

    /// The generated nginx.conf, from Scripts/lib/nginx-cluster.sh.
    private static func configuration(folder: String, port: Int, over ports: [Int], roundRobin: Bool) async throws
        -> String {
        let script = repository.appendingPathComponent("Scripts/lib/nginx-cluster.sh").path
        let shell = try SpawnedProcess("/bin/bash", ["-c", "source \"$0\" && nginx_cluster_conf \"$@\"", script]
                                           + (roundRobin ? ["--round-robin"] : []) + [folder, String(port)]
                                           + ports.map(String.init), environment: [:])
        let output = try await offPool { shell.output.readDataToEndOfFile() }
        try await offPool { try shell.waitUntilExit() }
        guard shell.terminationStatus == 0 else { throw TestConnection.Failure(description: "nginx_cluster_conf failed") }
        return String(decoding: output, as: UTF8.self)
    }

    /// The repository's root folder.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Its error log so far (warnings and errors), for a failing test's message.
    var errorLog: String { Self.errorLog(folder) }

    private static func errorLog(_ folder: URL) -> String {
        (try? String(contentsOf: folder.appendingPathComponent("nginx-error.log"), encoding: .utf8)) ?? ""
    }

    /// Stops nginx (SIGTERM: the master stops its workers and exits; SIGKILL past 20 s) and removes its folder.
    func stop() async {
        await process.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
