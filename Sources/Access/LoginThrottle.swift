import Locking

/// Rate limit of failed sign-ins (docs/SECURITY.md, "Users"): at most ``Limits/perUser`` failures per user name and
/// ``Limits/perAddress`` per client address within ``Limits/window``; past either, sign-ins for that name or from
/// that address are refused (`429`) without checking the password until the window that began with the first
/// failure ends. A success clears its user's count. Memory is bounded: at most ``Limits/capacity`` names and as many
/// addresses are tracked; when full, the entry whose window began first goes (expired ones before any).
///
/// Thread-safe: one `Lock` over all counts (held for a dictionary lookup, or a scan when full).
public final class LoginThrottle: Sendable {
    public struct Limits: Sendable, Equatable {
        public var perUser = 5
        public var perAddress = 20
        public var window: Duration = .seconds(15 * 60)
        public var capacity = 4_096
        public init() {}
    }

    private struct Entry {
        var failures: Int
        var since: ContinuousClock.Instant
    }

    private struct State {
        var users: [String: Entry] = [:]
        var addresses: [UInt32: Entry] = [:]
    }

    public let limits: Limits
    private let state = Lock(State())

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// How long `user` from `address` must wait before another attempt; nil: they may try now.
    public func wait(user: String, address: UInt32, now: ContinuousClock.Instant = .now) -> Duration? {
        state.withLock { state in
            let waits = [Self.wait(state.users[user], limit: limits.perUser, window: limits.window, now: now),
                         Self.wait(state.addresses[address], limit: limits.perAddress, window: limits.window, now: now)]
            return waits.compactMap { $0 }.max()
        }
    }

    /// Counts a failed attempt of `user` from `address`.
    public func recordFailure(user: String, address: UInt32, now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            Self.count(&state.users, user, limits: limits, now: now)
            Self.count(&state.addresses, address, limits: limits, now: now)
        }
    }

    /// Forgets `user`'s failures (a successful sign-in); the address keeps its count.
    public func recordSuccess(user: String) {
        _ = state.withLock { $0.users.removeValue(forKey: user) }
    }

    private static func wait(_ entry: Entry?, limit: Int, window: Duration, now: ContinuousClock.Instant) -> Duration? {
        guard let entry, entry.failures >= limit else { return nil }
        let end = entry.since + window
        return end > now ? end - now : nil
    }

    private static func count<Key: Hashable>(_ table: inout [Key: Entry], _ key: Key, limits: Limits,
                                             now: ContinuousClock.Instant) {
        if var entry = table[key], entry.since + limits.window > now {
            entry.failures += 1
            table[key] = entry
            return
        }
        if table[key] == nil, table.count >= limits.capacity {
            let expired = table.filter { $0.value.since + limits.window <= now }.map(\.key)
            if expired.isEmpty, let oldest = table.min(by: { $0.value.since < $1.value.since })?.key {
                table.removeValue(forKey: oldest)
            }
            expired.forEach { table.removeValue(forKey: $0) }
        }
        table[key] = Entry(failures: 1, since: now)
    }
}

extension LoginThrottle {
    /// How many names and addresses are tracked (bounded by twice ``Limits/capacity``).
    public var trackedCount: Int { state.withLock { $0.users.count + $0.addresses.count } }
}
