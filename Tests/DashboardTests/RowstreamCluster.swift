import Foundation
import Glibc
import TestSupport
import Testing

/// Rowstream instances behind nginx, as Scripts/cluster runs them (docs/SCALING.md): instance i runs the built
/// executable with `--port 0 --instance-tag i` and the given arguments, and nginx (`NginxProcess`) spreads viewers
/// over them. `restart(_:)` starts an instance that has exited again on the same port with the same arguments
/// (a rolling restart). Every process is stopped by its PID (`stop()`).
/// Confined to the test task that made it (`run`): only that task starts, restarts and stops instances.
final class RowstreamCluster: @unchecked Sendable {
    let nginx: NginxProcess
    /// The instances by tag; `restart(_:)` replaces one.
    private(set) var instances: [RowstreamProcess.Server]
    private let arguments: [String]

    private init(nginx: NginxProcess, instances: [RowstreamProcess.Server], arguments: [String]) {
        self.nginx = nginx
        self.instances = instances
        self.arguments = arguments
    }

    /// Runs `body` with `count` instances (tags 0..<count, each with `arguments`) behind nginx; stops nginx and every
    /// instance by PID afterwards, whatever happened.
    static func run(instances count: Int, arguments: [String],
                    _ body: (RowstreamCluster) async throws -> Void) async throws {
        try #require(RowstreamProcess.isBuilt, "build the rowstream product first")
        try #require(NginxProcess.isInstalled, "install nginx (Scripts/test does)")
        var instances: [RowstreamProcess.Server] = []
        do {
            for tag in 0..<count {
                instances.append(try await RowstreamProcess.start(Self.arguments(tag: tag, port: 0) + arguments))
            }
        } catch {
            instances.forEach { $0.kill() }
            throw error
        }
        let nginx: NginxProcess
        do {
            nginx = try await NginxProcess.start(over: instances.map(\.port))
        } catch {
            instances.forEach { $0.kill() }
            throw error
        }
        let cluster = RowstreamCluster(nginx: nginx, instances: instances, arguments: arguments)
        do {
            try await body(cluster)
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }

    private static func arguments(tag: Int, port: Int) -> [String] {
        ["--port", String(port), "--instance-tag", String(tag)]
    }

    /// Starts instance `tag` again, on its port with its arguments, once the old process has exited (the caller
    /// waited for that: `exitStatus(within:)`).
    func restart(_ tag: Int) async throws {
        let port = instances[tag].port
        instances[tag] = try await RowstreamProcess.start(Self.arguments(tag: tag, port: port) + arguments)
    }

    /// Stops nginx, then kills every instance still running.
    func stop() async {
        await nginx.stop()
        instances.forEach { $0.kill() }
    }
}
