import Locking
import Upstream

/// An in-memory stand-in for Redis: one `MemoryPageStore` is the shared server; each `view()` is one instance's
/// connection to it (its own landing board, as each instance has its own subscription). Values lapse by the clock;
/// leases by a manual clock the test moves on (``advanceLeaseClock(by:)``), so that no lease lapses
/// because a busy machine was slow to renew it. A landing notice reaches every view, and the whole store can be made unavailable (calls throw
/// `.unavailable`, every board is told to look again) or failing (reachable, but every call throws `.timedOut`).
///
/// Thread-safe: one `Lock` over the data.
final class MemoryPageStore: Sendable {
    private struct State {
        var values: [String: (bytes: [UInt8], expires: ContinuousClock.Instant)] = [:]
        var leases: [String: (token: String, expires: Duration)] = [:]
        /// The manual clock of the leases' expiry.
        var leaseClock: Duration = .zero
        var available = true
        var failing = false
        var boards: [LandingBoard] = []
        var beforeNextLease: (@Sendable () -> Void)?
        var nextLeaseTimesOut = false
        var leasesTaken = 0
        var renewals = 0
        var announcements = 0
    }

    private let state = Lock(State())

    /// One instance's connection.
    func view() -> any SharedPageStore {
        let board = LandingBoard()
        state.withLock { $0.boards.append(board) }
        return View(store: self, landings: board)
    }

    /// Makes the store reachable or not; every view's waiters are told to look again.
    func setAvailable(_ available: Bool) {
        let boards = state.withLock { state in
            state.available = available
            return state.boards
        }
        boards.forEach { $0.landAll() }
    }

    /// Makes every call fail with `.timedOut` while the store still says it is available (a slow Redis).
    func setFailing(_ failing: Bool) { state.withLock { $0.failing = failing } }

    /// Writes `bytes` at `key` as a hostile or broken writer would.
    func put(_ bytes: [UInt8], at key: String) {
        state.withLock { $0.values[key] = (bytes, .now + .seconds(600)) }
    }

    /// Runs `action` just before the next lease is taken (another instance acting in between).
    func beforeNextLease(_ action: @escaping @Sendable () -> Void) { state.withLock { $0.beforeNextLease = action } }

    /// Makes the next lease be taken but its caller told `.timedOut` (a command that ran after its timeout).
    func timeOutNextLease() { state.withLock { $0.nextLeaseTimesOut = true } }

    /// Moves the leases' clock on (a lease not renewed within its lifetime lapses); returns the renewals so far, so
    /// that a test can wait for one after this move.
    @discardableResult
    func advanceLeaseClock(by duration: Duration) -> Int {
        state.withLock { state in
            state.leaseClock += duration
            return state.renewals
        }
    }

    /// Whether someone holds the lease `key` now.
    func isLeased(_ key: String) -> Bool {
        state.withLock { state in (state.leases[key]?.expires).map { $0 > state.leaseClock } ?? false }
    }

    func bytes(at key: String) -> [UInt8]? { state.withLock { $0.values[key]?.bytes } }
    var leasesTaken: Int { state.withLock { $0.leasesTaken } }
    var renewals: Int { state.withLock { $0.renewals } }
    var announcements: Int { state.withLock { $0.announcements } }
    var waiting: Int { state.withLock { $0.boards }.reduce(0) { $0 + $1.waiting } }

    private func run<T>(_ body: (inout State, ContinuousClock.Instant) -> T) throws(SharedStoreError) -> T {
        let outcome = state.withLock { state -> Result<T, SharedStoreError> in
            guard state.available else { return .failure(.unavailable) }
            guard !state.failing else { return .failure(.timedOut) }
            return .success(body(&state, .now))
        }
        return try outcome.get()
    }

    private struct View: SharedPageStore {
        let store: MemoryPageStore
        let landings: LandingBoard

        var isAvailable: Bool { store.state.withLock { $0.available } }

        func value(at key: String) async throws(SharedStoreError) -> [UInt8]? {
            try store.run { state, now in
                guard let value = state.values[key], value.expires > now else { return nil }
                return value.bytes
            }
        }

        func store(_ value: [UInt8], at key: String, lifetime: Duration) async throws(SharedStoreError) {
            try store.run { state, now in
                let old = state.values[key].flatMap { $0.expires > now ? $0.bytes : nil }
                guard SharedPageOrder.replaces(old, with: value, now: SharedPages.unixMilliseconds()) else { return }
                state.values[key] = (value, now + lifetime)
            }
        }

        func takeLease(_ key: String, token: String, lifetime: Duration) async throws(SharedStoreError) -> Bool {
            store.state.withLock { state in defer { state.beforeNextLease = nil }; return state.beforeNextLease }?()
            let timedOut = store.state.withLock { state in
                defer { state.nextLeaseTimesOut = false }
                return state.nextLeaseTimesOut
            }
            let taken = try store.run { state, _ in
                if let lease = state.leases[key], lease.expires > state.leaseClock { return false }
                state.leases[key] = (token, state.leaseClock + lifetime)
                state.leasesTaken += 1
                return true
            }
            if timedOut { throw .timedOut }
            return taken
        }

        func renewLease(_ key: String, token: String, lifetime: Duration) async throws(SharedStoreError) -> Bool {
            try store.run { state, _ in
                guard let lease = state.leases[key], lease.token == token, lease.expires > state.leaseClock else { return false }
                state.leases[key] = (token, state.leaseClock + lifetime)
                state.renewals += 1
                return true
            }
        }

        func releaseLease(_ key: String, token: String) async throws(SharedStoreError) {
            try store.run { state, _ in
                if state.leases[key]?.token == token { state.leases[key] = nil }
            }
        }

        func announceLanding(of key: String) async throws(SharedStoreError) {
            let boards = try store.run { state, _ in
                state.announcements += 1
                return state.boards
            }
            boards.forEach { $0.land(key) }
        }
    }
}
