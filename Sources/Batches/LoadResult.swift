/// What a loader returns for one token: a batch with the token of the next, or the last batch.
///
/// Works for cursor APIs (`next` is the upstream cursor) and page-number APIs (`Token == Int`,
/// `next` is `page + 1`). Thread-safe: an immutable value.
public enum LoadResult<Item: Sendable, Token: Sendable>: Sendable {
    /// A batch; more may follow from `next` (a cursor, or page + 1).
    case items([Item], next: Token)
    /// The last batch (may be empty).
    case completed([Item])
}

/// Why a load failed, as shown in place on the page; `isRetryable` decides whether it offers "Retry".
///
/// A loader may throw one directly to choose the message and retryability; any other error becomes a
/// retryable failure described by `String(describing:)`. Thread-safe: an immutable value.
public struct LoadFailure: Error, Sendable, Equatable {
    /// Human-readable reason, shown to the viewer.
    public var message: String
    /// Whether loading the same token again may succeed.
    public var isRetryable: Bool

    /// Creates a failure with a message and retryability.
    public init(message: String, isRetryable: Bool) {
        self.message = message
        self.isRetryable = isRetryable
    }

    /// The load took longer than the data source's `loadTimeout`; retrying may succeed.
    public static let timedOut = LoadFailure(message: "timed out", isRetryable: true)

    /// The loader threw `CancellationError` although nobody cancelled it; retrying may succeed.
    public static let cancelled = LoadFailure(message: "cancelled", isRetryable: true)

    /// The failure a loader's error stands for: a `LoadFailure` as is, a `CancellationError` as
    /// ``cancelled``, anything else as a retryable failure described by `String(describing:)`.
    public init(_ error: any Error) {
        switch error {
        case let failure as LoadFailure: self = failure
        case is CancellationError: self = .cancelled
        default: self.init(message: String(describing: error), isRetryable: true)
        }
    }
}
