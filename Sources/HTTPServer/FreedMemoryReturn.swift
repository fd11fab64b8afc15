import CSystem
import Dispatch
import Glibc
import Locking

/// Gives the allocator's free memory back to the system after a wave of disconnects, and after a wave of work
/// (a storm of arrivals) has settled.
///
/// glibc keeps memory freed by closed connections in its arenas (one per busy thread) for reuse. Connections
/// come and go in different orders, so the free memory is spread in many chunks between live ones and the heaps
/// cannot shrink from the top: measured after a soak of 2,000 viewers, 13-24 MB in use held 118-158 MB of heap and
/// RSS stayed at the load's high-water mark (docs/HARDENING.md). `malloc_trim(0)` releases the free pages inside
/// the heaps (what is in use does not move). It walks every arena (about 25 ms for 150 MB), so it runs rarely,
/// on a global queue, never on an event loop, at most once per `minimumInterval`, in two cases:
/// - a wave of disconnects: open connections have fallen by `minimumDrop`, and to at most half, from their peak
///   since the last return (a wave seen half-way by one sweep gets a second return for the rest once the interval
///   has passed);
/// - a wave of work that settled: resident memory grew by `minimumGrowth` since the last return (or the start)
///   and has then not grown for `settle`. A storm of arrivals leaves each viewer's transient first batch and the
///   storm's queues freed between the streams' long-lived objects, with no disconnect to trigger a return:
///   measured at 19,000 streams (BENCHMARKS.md, "Memory after a storm of arrivals").
///
/// Thread-safe: the decision is made under one `Lock`; every loop's sweep may call `observe`.
final class FreedMemoryReturn: Sendable {
    private struct State {
        var peak = 0
        var lastReturn: ContinuousClock.Instant?
        var returns = 0
        /// Resident bytes just after the last return (the first reading after it), nil until read.
        var residentBase: Int?
        /// The highest resident bytes since, give or take `growthSlack`, and when it was reached.
        var residentMark = 0
        var residentMarkAt: ContinuousClock.Instant?
    }

    /// Fewest closed connections (from the peak) that make a return worth its cost.
    let minimumDrop: Int
    /// Least time between two returns.
    let minimumInterval: Duration
    /// Least growth of resident memory since the last return that makes a return worth its cost.
    let minimumGrowth: Int
    /// How long resident memory must not have grown (by more than `growthSlack`) before a growth return.
    let settle: Duration
    /// Growth smaller than this does not count as the wave going on (a heartbeat touching a page).
    static let growthSlack = 1 << 20
    private let state = Lock(State())

    init(minimumDrop: Int, minimumInterval: Duration = .seconds(2), minimumGrowth: Int = 8 << 20,
         settle: Duration = .seconds(1)) {
        self.minimumDrop = max(1, minimumDrop)
        self.minimumInterval = minimumInterval
        self.minimumGrowth = max(1, minimumGrowth)
        self.settle = settle
    }

    /// How many returns were decided (for tests).
    var returns: Int { state.withLock { $0.returns } }

    /// Records the open connection count and the resident bytes (nil: unknown); true when memory should be
    /// returned now (then the peak and the resident base restart).
    func shouldReturn(openConnections open: Int, residentBytes resident: Int? = nil,
                      now: ContinuousClock.Instant) -> Bool {
        state.withLock { state in
            state.peak = max(state.peak, open)
            let disconnected = state.peak - open >= minimumDrop && open * 2 <= state.peak
            let settled = resident.map { Self.settled(&state, resident: $0, now: now, growth: minimumGrowth,
                                                      settle: settle) } ?? false
            guard disconnected || settled else { return false }
            if let last = state.lastReturn, now - last < minimumInterval { return false }
            state.lastReturn = now
            state.peak = open
            state.residentBase = nil
            state.returns += 1
            return true
        }
    }

    /// Tracks resident memory; true when it grew by `growth` since the base and has not grown for `settle`.
    private static func settled(_ state: inout State, resident: Int, now: ContinuousClock.Instant, growth: Int,
                                settle: Duration) -> Bool {
        guard let base = state.residentBase else {
            state.residentBase = resident
            state.residentMark = resident
            state.residentMarkAt = now
            return false
        }
        if resident > state.residentMark + growthSlack || state.residentMarkAt == nil {
            state.residentMark = resident
            state.residentMarkAt = now
        }
        guard state.residentMark - base >= growth, let since = state.residentMarkAt else { return false }
        return now - since >= settle
    }

    /// Calls `shouldReturn` with the process's resident bytes and, if so, trims the heap on a global queue.
    /// Returns at once.
    func observe(openConnections open: Int, now: ContinuousClock.Instant = .now) {
        guard shouldReturn(openConnections: open, residentBytes: Self.residentBytes(), now: now) else { return }
        DispatchQueue.global(qos: .utility).async { _ = malloc_trim(0) }
    }

    /// The process's resident bytes (`/proc/self/statm`, its second field in pages); nil if unreadable.
    static func residentBytes() -> Int? {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }
}
