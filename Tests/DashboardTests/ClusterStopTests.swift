import Dashboard
import Synchronization
import TestSupport
import Testing

/// A dashboard's cluster (its Redis client, subscriptions and relay) is stopped before the call that stops it
/// returns: `waitUntilShutdown()` after `shutdown()`, and a start that fails after the cluster was made, before it
/// throws. (A shutdown left to a task nobody awaited let a process exit with Redis traffic in flight, which
/// LeakSanitizer reported.)
@Suite("Cluster stop")
struct ClusterStopTests {
    /// A dashboard configuration over the demo on `redis`, whose cluster's stops are counted in `stops`.
    static func configuration(redis: RedisServerProcess, stops: Counted) -> DashboardConfiguration {
        var configuration = DashboardConfiguration()
        configuration.server.publicDirectory = publicDirectory
        configuration.server.eventLoopCount = 1
        configuration.redis = RedisURL("unix://" + redis.socketPath)
        configuration.clusterStopped = {
            // A shutdown that takes a while (as one with Redis traffic to read out does): one nobody waits for is
            // still running when its starter goes on. One that is waited for is over either way. A short sleep, not
            // 1,000 turns of the pool: with the suite's other tests queued on its two threads those took longer than
            // the 10 s the stop is waited for (twice in a busy local run).
            try? await Task.sleep(for: .milliseconds(50))
            stops.add()
        }
        configuration.server.logger = RecordingLogger()   // (its warning of a random sealing key: not on stderr)
        return configuration
    }

    final class Counted: Sendable {
        private let count = Atomic<Int>(0)
        func add() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    @Test("a start that fails after the cluster was made has stopped the cluster when it throws")
    func failedStartStopsTheCluster() async throws {
        let redis = try await RedisServerProcess.start()
        defer { Task { try? await redis.kill() } }
        let stops = Counted()
        var configuration = Self.configuration(redis: redis, stops: stops)
        configuration.frameAncestors = ["not a source"]   // refused by the server, after the cluster is made
        // Off the cooperative pool: the failing start waits (bounded) for the cluster's shutdown, which runs on it.
        // The count is read on the same thread right as the error arrives: a shutdown left running ends later.
        let refused = configuration
        let (thrown, stoppedWhenThrown) = try await offPool { () -> (String?, Int) in
            do {
                _ = try Dashboard.inProcess(refused)
                return (nil, stops.value)
            } catch {
                return ("\(error)", stops.value)
            }
        }
        let message = try #require(thrown, "the start did not fail")
        #expect(message.contains("not a source"), "the error names what failed: \(message)")
        #expect(stoppedWhenThrown == 1, "the cluster's shutdown ended before the error was thrown")
    }

    @Test("waitUntilShutdown returns once the cluster has stopped")
    func waitUntilShutdownWaitsForTheCluster() async throws {
        let redis = try await RedisServerProcess.start()
        defer { Task { try? await redis.kill() } }
        let stops = Counted()
        let dashboard = try Dashboard.inProcess(Self.configuration(redis: redis, stops: stops))
        try await offPool {
            dashboard.shutdown()
            dashboard.waitUntilShutdown()
        }
        #expect(stops.value == 1, "the cluster's shutdown ended before waitUntilShutdown returned")
    }
}
