import Dispatch
import Synchronization

/// A cluster's shutdown (``SharedCluster/shutdown()``, async) for synchronous callers: started once, however often
/// ``start()`` is called, and waited for with a bound (``wait(bound:)``). The one way `Dashboard` stops its cluster,
/// whether it ran (`shutdown()`, `waitUntilShutdown()`) or its start failed after the cluster was made.
///
/// Thread-safe: `start()` and `wait(bound:)` may be called from any thread. `wait(bound:)` blocks its thread while
/// the shutdown runs on Swift's cooperative pool: never call it from a task on that pool (it would hold one of the
/// threads the shutdown needs; the bound still ends it).
final class ClusterStop: Sendable {
    private let cluster: SharedCluster
    /// Awaited once the shutdown has ended, before a waiter is let go (`DashboardConfiguration.clusterStopped`: tests).
    private let stopped: (@Sendable () async -> Void)?
    private let started = Atomic<Bool>(false)
    /// Signalled once when the shutdown has ended; each waiter that got it signals it again for the next.
    private let ended = DispatchSemaphore(value: 0)

    init(_ cluster: SharedCluster, stopped: (@Sendable () async -> Void)?) {
        self.cluster = cluster
        self.stopped = stopped
    }

    /// Starts the shutdown (the first call only); returns at once.
    func start() {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        Task { [cluster, stopped, ended] in
            await cluster.shutdown()
            await stopped?()
            ended.signal()
        }
    }

    /// Blocks until the shutdown has ended, or `bound` has passed: one `start()` began, or one another thread is
    /// about to begin (`Dashboard.shutdown()` starts it after the server's, which `waitUntilShutdown()` may see
    /// end first). Whether it ended in time: true.
    @discardableResult
    func wait(bound: DispatchTimeInterval) -> Bool {
        guard ended.wait(timeout: .now() + bound) == .success else { return false }
        ended.signal()
        return true
    }
}
