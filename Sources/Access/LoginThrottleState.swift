/// The counts behind ``LoginThrottle``, as a value: each mutating method decides one step and returns what to do,
/// so its owner decides under one lock and acts (checks the password, answers) outside it.
///
/// An attempt is counted before its password is checked: ``reserve(user:address:now:)`` takes a place (a pending
/// attempt) under both the user's and the address's limit, or refuses; ``settle(_:failed:now:)`` turns the place
/// into a failure or gives it back. So however many attempts arrive at once, no more passwords are checked than the
/// limits allow (docs/SECURITY.md, "Users").
///
/// A plain value: not thread-safe by itself (``LoginThrottle`` holds it in a `Lock`).
struct LoginThrottleState {
    /// One name's or address's count: failures in the window that began at `since`, and attempts being checked.
    struct Entry {
        var failures = 0
        /// When the first failure of the window came; nil: no failure yet (only pending attempts).
        var since: ContinuousClock.Instant?
        var pending = 0
    }

    /// What ``reserve(user:address:now:)`` decided.
    enum Decision: Equatable {
        /// Check the password, then ``settle(_:failed:now:)`` with this attempt.
        case check(Attempt)
        /// Refuse without a check; try again after this long.
        case refuse(retryAfter: Duration)
    }

    /// A reserved attempt: what ``settle(_:failed:now:)`` settles.
    typealias Attempt = LoginThrottle.Attempt

    /// How long an attempt refused only because others are being checked is told to wait.
    static let pendingWait: Duration = .seconds(1)

    let limits: LoginThrottle.Limits
    private(set) var users: [String: Entry] = [:]
    private(set) var addresses: [UInt32: Entry] = [:]

    init(limits: LoginThrottle.Limits) {
        self.limits = limits
    }

    /// A place for an attempt of `user` from `address` under both limits (counted as pending), or how long to wait.
    mutating func reserve(user: String, address: UInt32, now: ContinuousClock.Instant) -> Decision {
        if let wait = wait(user: user, address: address, now: now) { return .refuse(retryAfter: wait) }
        Self.add(&users, user, limits: limits, now: now) { $0.pending += 1 }
        Self.add(&addresses, address, limits: limits, now: now) { $0.pending += 1 }
        return .check(Attempt(user: user, address: address))
    }

    /// How long an attempt of `user` from `address` would have to wait; nil: it may try now. Changes nothing.
    func wait(user: String, address: UInt32, now: ContinuousClock.Instant) -> Duration? {
        [wait(users[user], limit: limits.perUser, now: now),
         wait(addresses[address], limit: limits.perAddress, now: now)].compactMap { $0 }.max()
    }

    /// Ends `attempt`: a failure is counted (its window begins with the first), a success clears its user's
    /// failures (the address keeps its count).
    mutating func settle(_ attempt: Attempt, failed: Bool, now: ContinuousClock.Instant) {
        let count: (inout Entry) -> Void = { entry in
            entry.pending = max(0, entry.pending - 1)
            guard failed else { return }
            if entry.since == nil { entry.since = now }
            entry.failures += 1
        }
        Self.add(&users, attempt.user, limits: limits, now: now, count)
        Self.add(&addresses, attempt.address, limits: limits, now: now, count)
        if !failed { users[attempt.user]?.failures = 0; users[attempt.user]?.since = nil }
        Self.dropIfEmpty(&users, attempt.user)
        Self.dropIfEmpty(&addresses, attempt.address)
    }

    /// How long an attempt must wait under `entry`: to the end of its window once its failures reach `limit`,
    /// ``pendingWait`` while its failures and pending attempts together do; nil: it may try.
    private func wait(_ entry: Entry?, limit: Int, now: ContinuousClock.Instant) -> Duration? {
        guard let entry else { return nil }
        let failures = Self.isExpired(entry, window: limits.window, now: now) ? 0 : entry.failures
        if failures >= limit, let since = entry.since { return since + limits.window - now }
        return failures + entry.pending >= limit ? Self.pendingWait : nil
    }

    private static func isExpired(_ entry: Entry, window: Duration, now: ContinuousClock.Instant) -> Bool {
        entry.since.map { $0 + window <= now } ?? false
    }

    /// Applies `change` to `key`'s entry (a fresh window once the old one ended), making room when the table is full:
    /// expired entries with nothing pending go first, else the one whose window began first.
    private static func add<Key: Hashable>(_ table: inout [Key: Entry], _ key: Key, limits: LoginThrottle.Limits,
                                           now: ContinuousClock.Instant, _ change: (inout Entry) -> Void) {
        if table[key] == nil, table.count >= limits.capacity {
            let expired = table.filter { $0.value.pending == 0 && isExpired($0.value, window: limits.window, now: now) }
                .map(\.key)
            if expired.isEmpty, let oldest = table.min(by: { ($0.value.since ?? now) < ($1.value.since ?? now) })?.key {
                table.removeValue(forKey: oldest)
            }
            expired.forEach { table.removeValue(forKey: $0) }
        }
        var entry = table[key] ?? Entry()
        if isExpired(entry, window: limits.window, now: now) {
            entry.failures = 0
            entry.since = nil
        }
        change(&entry)
        table[key] = entry
    }

    private static func dropIfEmpty<Key: Hashable>(_ table: inout [Key: Entry], _ key: Key) {
        if let entry = table[key], entry.failures == 0, entry.pending == 0 { table.removeValue(forKey: key) }
    }
}
