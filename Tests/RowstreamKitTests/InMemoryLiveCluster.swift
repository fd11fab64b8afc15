import Locking
import Synchronization
@testable import RowstreamKit

/// A ``LiveCluster`` in memory, as Redis would be for every instance of a test: one store per table (lease with a
/// manual clock, head, log), and a handle (``Channel``) per instance that can be made to miss log entries.
/// The store can go down (every call throws), and restart losing everything (a Redis without persistence).
///
/// Thread-safe: one `Lock` per store; waiting reads are resumed outside it.
final class InMemoryLiveCluster: LiveCluster {
    struct Down: Error {}

    /// One table's shared state.
    final class Store: Sendable {
        struct State {
            var available = true
            /// The manual clock of the lease's expiry.
            var now: Duration = .zero
            var lease: (owner: String, expires: Duration)?
            var head: LiveHead?
            var log: [(index: Int, entry: LiveLogEntry)] = []
            var lastIndex = 0
            var epochs = 0
            /// Bumped by a restart: each handle's next read fails once (its connection was lost).
            var generation = 0
            var publications = 0
            var readers: [Int: CheckedContinuation<Void, Never>] = [:]
            var lastReader = 0
        }
        let state = Lock(State())

        func entries(after cursor: String?) -> [LiveLogEntry] {
            let after = cursor.flatMap(Int.init) ?? 0
            return state.withLock { $0.log.filter { $0.index > after }.map(\.entry) }
        }

        func wakeReaders() {
            state.withLock { state in
                defer { state.readers = [:] }
                return Array(state.readers.values)
            }.forEach { $0.resume() }
        }
    }

    /// One instance's handle on a table's store.
    final class Channel: LiveChannel {
        let store: Store
        /// While set, this instance's reads of the log fail (its reading connection is lost; the other calls work).
        let disconnected = Atomic<Bool>(false)
        /// While set, this instance's reads get nothing (a slow consumer: trim the log meanwhile to make it miss some).
        let paused = Atomic<Bool>(false)
        private let generation: Atomic<Int>
        let forwardTimeout: Duration
        /// Calls of `holdLease` through this handle.
        let leaseTries = Atomic<Int>(0)
        /// This many of this instance's next publications throw (a store that fails between a read and a write).
        let failingPublishes = Atomic<Int>(0)

        init(store: Store, forwardTimeout: Duration = LiveClusterDefaults.forwardTimeout) {
            self.store = store
            self.forwardTimeout = forwardTimeout
            generation = Atomic(store.state.withLock { $0.generation })
        }

        var isAvailable: Bool { store.state.withLock { $0.available } }

        private func check() throws {
            guard isAvailable else { throw Down() }
        }

        func holdLease(_ owner: String, for duration: Duration) async throws -> Bool {
            leaseTries.add(1, ordering: .relaxed)
            try check()
            return store.state.withLock { state in
                if let lease = state.lease, lease.owner != owner, lease.expires > state.now { return false }
                state.lease = (owner, state.now + duration)
                return true
            }
        }

        func releaseLease(_ owner: String) async throws {
            try check()
            store.state.withLock { if $0.lease?.owner == owner { $0.lease = nil } }
        }

        func head() async throws -> LiveHead? {
            try check()
            return store.state.withLock { $0.head }
        }

        func publish(_ head: LiveHeadRows, answering requests: [String], owner: String, base: LiveHeadPosition?)
            async throws -> LiveHeadPosition? {
            try check()
            if failingPublishes.load(ordering: .relaxed) > 0 {
                failingPublishes.subtract(1, ordering: .relaxed)
                throw Down()
            }
            let position: LiveHeadPosition? = store.state.withLock { state in
                guard let lease = state.lease, lease.owner == owner, lease.expires > state.now,
                      state.head?.position.epoch == base?.epoch, state.head?.position.sequence == base?.sequence
                else { return nil }
                if state.head == nil { state.epochs += 1 }
                state.lastIndex += 1
                state.publications += 1
                let position = LiveHeadPosition(
                    epoch: state.head?.position.epoch ?? "epoch\(state.epochs)",
                    sequence: (state.head?.position.sequence ?? 0) + 1, cursor: String(state.lastIndex))
                state.head = LiveHead(rows: head, position: position)
                state.log.append((state.lastIndex, .head(LiveHead(rows: head, position: position), answers: requests)))
                return position
            }
            store.wakeReaders()
            return position
        }

        func requestRefresh(_ request: String) async throws {
            try check()
            store.state.withLock { state in
                state.lastIndex += 1
                state.log.append((state.lastIndex, .refreshRequest(request, cursor: String(state.lastIndex))))
            }
            store.wakeReaders()
        }

        func read(after cursor: String?) async throws -> [LiveLogEntry] {
            try checkConnection()
            var entries = paused.load(ordering: .relaxed) ? [] : store.entries(after: cursor)
            if entries.isEmpty {
                await waitForEntries(after: cursor)
                try checkConnection()
                entries = paused.load(ordering: .relaxed) ? [] : store.entries(after: cursor)
            }
            return entries
        }

        private func checkConnection() throws {
            try check()
            guard !disconnected.load(ordering: .relaxed) else { throw Down() }
            let current = store.state.withLock { $0.generation }
            guard generation.exchange(current, ordering: .relaxed) == current else { throw Down() }
        }

        /// Until an entry after `cursor` is there (and the handle is not paused), the task is cancelled, or 200 ms
        /// passed (a blocking read's bound). A paused handle waits too: returning at once made its follower spin on
        /// a cooperative thread for as long as the pause lasted.
        private func waitForEntries(after cursor: String?) async {
            let after = cursor.flatMap(Int.init) ?? 0
            let id = store.state.withLock { state in
                state.lastReader += 1
                return state.lastReader
            }
            let store = self.store, paused = self.paused.load(ordering: .relaxed)
            @Sendable func wake() { store.state.withLock { $0.readers.removeValue(forKey: id) }?.resume() }
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let ready = store.state.withLock { state in
                        let ready = (!paused && state.log.contains { $0.index > after }) || !state.available
                        if !ready { state.readers[id] = continuation }
                        return ready
                    }
                    if ready { return continuation.resume() }
                    Task {
                        try? await Task.sleep(for: .milliseconds(200))
                        wake()
                    }
                }
            } onCancel: {
                wake()
            }
        }
    }

    private let stores = Lock<[String: Store]>([:])

    /// A new handle (one instance's) on `table`'s store.
    func channel(table: String) -> any LiveChannel { handle(table) }

    func handle(_ table: String, forwardTimeout: Duration = LiveClusterDefaults.forwardTimeout) -> Channel {
        Channel(store: stores.withLock { stores in
            if let store = stores[table] { return store }
            let store = Store()
            stores[table] = store
            return store
        }, forwardTimeout: forwardTimeout)
    }

    func store(_ table: String) -> Store { handle(table).store }

    /// Redis down (every call throws) or back.
    func setAvailable(_ available: Bool, table: String) {
        let store = store(table)
        store.state.withLock { $0.available = available }
        store.wakeReaders()
    }

    /// Moves the lease's clock on (a holder that stopped renewing loses it once `duration` passed).
    func advance(by duration: Duration, table: String) {
        store(table).state.withLock { $0.now += duration }
    }

    /// A restart without persistence: lease, head and log are gone, and every handle's connection is lost once.
    func restart(table: String) {
        let store = store(table)
        store.state.withLock { state in
            state.lease = nil
            state.head = nil
            state.log = []
            state.generation += 1
        }
        store.wakeReaders()
    }

    /// Drops all but the last `count` entries of the log (as `XADD MAXLEN`).
    func trim(keepingLast count: Int, table: String) {
        store(table).state.withLock { $0.log = Array($0.log.suffix(count)) }
    }

    /// Refresh requests in the log that no head in the log answers yet.
    func unansweredRequests(table: String) -> Int {
        let (requests, answered) = requestsAndAnswers(table: table)
        return requests.subtracting(answered).count
    }

    /// Refresh requests made so far (answered or not).
    func madeRequests(table: String) -> Int {
        requestsAndAnswers(table: table).requests.count
    }

    /// The refresh requests in the log, and the ones its heads answer.
    private func requestsAndAnswers(table: String) -> (requests: Set<String>, answered: Set<String>) {
        store(table).state.withLock { state in
            var requests: Set<String> = []
            var answered: Set<String> = []
            for (_, entry) in state.log {
                switch entry {
                case .refreshRequest(let request, _): requests.insert(request)
                case .head(_, let answers): answered.formUnion(answers)
                case .unreadable: break
                }
            }
            return (requests, answered)
        }
    }

    /// Heads published so far.
    func publications(table: String) -> Int { store(table).state.withLock { $0.publications } }
}
