/// How often clients may make a live table re-fetch its head through `POST /tables/NAME/refresh`: a token bucket
/// per table holding `burst` tokens, one more every `every`. A POST that starts an upstream fetch takes a token;
/// one that joins a refresh already running or queued costs none (it adds no upstream work). With no token left
/// the POST answers `429` with `Retry-After`. The interval ticker is the server's own and takes none.
///
/// Thread-safe: an immutable value, `Sendable`.
public struct RefreshLimit: Sendable, Hashable {
    /// Fetches that may start back to back (at least 1).
    public var burst: Int
    /// One more token after this much time (at least 1 ms).
    public var every: Duration

    /// The default: 5 back to back, then one every 2 seconds (30 a minute).
    public static let standard = RefreshLimit(burst: 5, every: .seconds(2))
    /// For benchmarks that publish through refresh: 1,000 back to back, then one every millisecond.
    public static let benchmark = RefreshLimit(burst: 1_000, every: .milliseconds(1))

    public init(burst: Int, every: Duration) {
        self.burst = max(1, burst)
        self.every = max(every, .milliseconds(1))
    }

    /// `perMinute` tokens a minute, `burst` at once.
    public init(perMinute: Int, burst: Int) {
        self.init(burst: burst, every: .seconds(60) / max(1, perMinute))
    }
}

/// The token bucket of a ``RefreshLimit`` as GCRA (the generic cell rate algorithm): one instant, the "theoretical
/// arrival time", instead of a token count and a refill timer. A pure value; the caller passes the time.
struct RefreshBucket: Sendable {
    let limit: RefreshLimit
    /// When the bucket would be full again if nothing more were taken (nil: full).
    private var theoreticalArrival: ContinuousClock.Instant?

    init(limit: RefreshLimit) {
        self.limit = limit
    }

    /// Takes a token at `now`: nil when one was there, else how long until the next one.
    mutating func take(at now: ContinuousClock.Instant) -> Duration? {
        let arrival = max(theoreticalArrival ?? now, now)
        let tolerance = limit.every * (limit.burst - 1)
        let wait = arrival - tolerance - now
        guard wait <= .zero else { return wait }
        theoreticalArrival = arrival + limit.every
        return nil
    }

    /// Gives back a token taken for work that never ran.
    mutating func refund() {
        theoreticalArrival = theoreticalArrival.map { $0 - limit.every }
    }
}
