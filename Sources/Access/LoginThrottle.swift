import Locking

/// Rate limit of failed sign-ins (docs/SECURITY.md, "Users"): at most ``Limits/perUser`` failures per user name and
/// ``Limits/perAddress`` per client address within ``Limits/window``; past either, sign-ins for that name or from
/// that address are refused (`429`) without checking the password until the window that began with the first
/// failure ends. A success clears its user's count. Memory is bounded: at most ``Limits/capacity`` names and as many
/// addresses are tracked; when full, the entry whose window began first goes (expired ones before any).
///
/// An attempt takes its place before its password is checked (``reserve(user:address:now:)``) and gives it back or
/// turns it into a failure after (``settle(_:failed:now:)``): attempts being checked count against the limits, so
/// 40 wrong passwords sent at once for one name get ``Limits/perUser`` checks, not more (``LoginThrottleState``).
///
/// Thread-safe: one `Lock` over all counts (held for a dictionary lookup, or a scan when full); the password check
/// runs outside it.
public final class LoginThrottle: Sendable {
    public struct Limits: Sendable, Equatable {
        public var perUser = 5
        public var perAddress = 20
        public var window: Duration = .seconds(15 * 60)
        public var capacity = 4_096
        public init() {}
    }

    /// A place taken by ``reserve(user:address:now:)``: settle it once, whatever the check found.
    public struct Attempt: Sendable, Equatable {
        let user: String
        let address: UInt32
    }

    public let limits: Limits
    private let state: Lock<LoginThrottleState>

    public init(limits: Limits = Limits()) {
        self.limits = limits
        state = Lock(LoginThrottleState(limits: limits))
    }

    /// An attempt of `user` from `address` may check its password: `.success` with the place it took (settle it with
    /// ``settle(_:failed:now:)``), or `.failure` with how long to wait.
    public func reserve(user: String, address: UInt32, now: ContinuousClock.Instant = .now) -> Result<Attempt, Refusal> {
        switch state.withLock({ $0.reserve(user: user, address: address, now: now) }) {
        case .check(let attempt): .success(attempt)
        case .refuse(let wait): .failure(Refusal(retryAfter: wait))
        }
    }

    /// How long `user` from `address` must wait before another attempt; nil: they may try now. Reserves nothing.
    public func wait(user: String, address: UInt32, now: ContinuousClock.Instant = .now) -> Duration? {
        state.withLock { $0.wait(user: user, address: address, now: now) }
    }

    /// Ends `attempt`: a failed check is counted, a successful one clears its user's failures.
    public func settle(_ attempt: Attempt, failed: Bool, now: ContinuousClock.Instant = .now) {
        state.withLock { $0.settle(attempt, failed: failed, now: now) }
    }

    /// Why ``reserve(user:address:now:)`` refused: the limits are reached (or attempts being checked fill them).
    public struct Refusal: Error, Sendable, Equatable {
        public let retryAfter: Duration
    }
}

extension LoginThrottle {
    /// How many names and addresses are tracked (bounded by twice ``Limits/capacity``).
    public var trackedCount: Int { state.withLock { $0.users.count + $0.addresses.count } }
}
