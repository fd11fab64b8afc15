import Foundation
import Glibc
import TestSupport
import Testing

/// Rowstream instances as Scripts/cluster runs them (docs/SCALING.md): instance i runs the built executable with
/// `--instance-tag i` and the given arguments, and in front of them (``Front``) nginx (`NginxProcess`: routing a
/// session's POSTs by the tag, or plain round robin) or nothing at all (every instance on one port with
/// `--reuse-port`: the kernel spreads connections). `restart(_:)` starts an instance that has exited again on the
/// same port with the same arguments (a rolling restart). Every process is stopped by its PID (`stop()`).
/// Confined to the test task that made it (`run`): only that task starts, restarts and stops instances.
final class RowstreamCluster: @unchecked Sendable {
    /// What spreads the requests over the instances.
    enum Front: Sendable {
        /// nginx with Scripts/cluster's config: least_conn, a session's POSTs routed by the id's tag.
        case nginxByTag
        /// nginx with one plain round-robin upstream (`nginx_cluster_conf --round-robin`): any request anywhere.
        case nginxRoundRobin
        /// No proxy: every instance on one port with `--reuse-port`.
        case reusePort
    }

    /// nil with ``Front/reusePort``.
    let nginx: NginxProcess?
    /// Where viewers connect: nginx's port, or the port the instances share.
    let port: Int
    /// The instances by tag; `restart(_:)` replaces one.
    private(set) var instances: [RowstreamProcess.Server]
    private let arguments: [String]
    private let front: Front

    private init(nginx: NginxProcess?, port: Int, instances: [RowstreamProcess.Server], arguments: [String],
                 front: Front) {
        self.nginx = nginx
        self.port = port
        self.instances = instances
        self.arguments = arguments
        self.front = front
    }

    /// Runs `body` with `count` instances (tags 0..<count, each with `arguments`) behind `front`; stops nginx and
    /// every instance by PID afterwards, whatever happened.
    static func run(instances count: Int, arguments: [String], front: Front = .nginxByTag,
                    _ body: (RowstreamCluster) async throws -> Void) async throws {
        try #require(RowstreamProcess.isBuilt, "build the rowstream product first")
        if front != .reusePort { try #require(NginxProcess.isInstalled, "install nginx (Scripts/test does)") }
        var instances: [RowstreamProcess.Server] = []
        do {
            for tag in 0..<count {
                // Sharing a port: the first takes a free one, the others join it.
                let port = front == .reusePort ? instances.first?.port ?? 0 : 0
                instances.append(try await RowstreamProcess.start(Self.arguments(tag: tag, port: port, front: front)
                                                                  + arguments))
            }
        } catch {
            instances.forEach { $0.kill() }
            throw error
        }
        var nginx: NginxProcess?
        if front != .reusePort {
            do {
                nginx = try await NginxProcess.start(over: instances.map(\.port), roundRobin: front == .nginxRoundRobin)
            } catch {
                instances.forEach { $0.kill() }
                throw error
            }
        }
        let cluster = RowstreamCluster(nginx: nginx, port: nginx?.port ?? instances[0].port, instances: instances,
                                       arguments: arguments, front: front)
        do {
            try await body(cluster)
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }

    private static func arguments(tag: Int, port: Int, front: Front) -> [String] {
        ["--port", String(port), "--instance-tag", String(tag)] + (front == .reusePort ? ["--reuse-port"] : [])
    }

    /// Starts instance `tag` again, on its port with its arguments, once the old process has exited (the caller
    /// waited for that: `exitStatus(within:)`).
    func restart(_ tag: Int) async throws {
        let port = instances[tag].port
        instances[tag] = try await RowstreamProcess.start(Self.arguments(tag: tag, port: port, front: front) + arguments)
    }

    /// Stops nginx, then kills every instance still running.
    func stop() async {
        await nginx?.stop()
        instances.forEach { $0.kill() }
    }
}
