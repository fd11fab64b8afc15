/// When and how long to wait before trying a failed upstream request again: bounded attempts, exponential
/// backoff with full jitter, and the upstream's `Retry-After` honoured.
///
/// Retried: connection failures, timeouts, 408, 429 and 5xx. Requests whose method is not idempotent
/// (`POST`, `PATCH`) are retried only when `retryNonIdempotent` is set. Waiting happens in the calling task
/// (`Task.sleep`), never on an event loop thread and without holding a thread.
///
/// A plain value: thread-safe.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included (1 = never retry).
    public var maxAttempts = 3
    /// The backoff before retry n (n = 1, 2, ...) is random in 0...min(maxDelay, baseDelay * 2^(n-1)).
    public var baseDelay: Duration = .milliseconds(250)
    /// Upper bound of one backoff.
    public var maxDelay: Duration = .seconds(5)
    /// A `Retry-After` longer than this is not waited for: the error is reported at once.
    public var maxRetryAfter: Duration = .seconds(30)
    /// Whether `POST` and `PATCH` requests may be retried (only if the API makes them safe to repeat).
    public var retryNonIdempotent = false
    /// How a wait is done; tests replace it to record delays instead of sleeping.
    public var sleep: @Sendable (Duration) async -> Void = { delay in try? await Task.sleep(for: delay) }

    /// Three attempts, 250 ms base, 5 s cap.
    public init() {}

    /// No retries.
    public static var never: RetryPolicy {
        var policy = RetryPolicy()
        policy.maxAttempts = 1
        return policy
    }

    /// Whether a request with `method` may be retried at all.
    func allows(method: String) -> Bool {
        let idempotent = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"].contains(method.uppercased())
        return maxAttempts > 1 && (idempotent || retryNonIdempotent)
    }

    /// The wait before retry number `retry` (1-based): the upstream's `retryAfter` when given (nil if it
    /// exceeds `maxRetryAfter`: do not retry), else full-jitter backoff; `unit` is a random number in [0, 1).
    func delay(beforeRetry retry: Int, retryAfter: Duration?, unit: Double) -> Duration? {
        if let retryAfter {
            return retryAfter <= maxRetryAfter ? max(.zero, retryAfter) : nil
        }
        let exponent = min(max(0, retry - 1), 30)
        let ceiling = min(maxDelay, baseDelay * (1 << exponent))
        return ceiling * min(max(unit, 0), 1)
    }
}
