/// Hook for metrics: told about every finished transfer.
///
/// - Important: `requestFinished` is called on the client's worker thread; it must be thread-safe,
///   return quickly and never block or call back into the client.
public struct UpstreamObserver: Sendable {
    /// Called once per transfer that ran. `outcome` is one of ``Outcome``'s raw values
    /// (`"ok"`, `"http_error"`, `"timeout"`, `"too_large"`, `"cancelled"`, `"shutdown"`, `"error"`);
    /// `seconds` is the time from the transfer's start to its end.
    public var requestFinished: @Sendable (_ outcome: String, _ seconds: Double) -> Void

    /// Creates an observer from its callback.
    public init(requestFinished: @escaping @Sendable (_ outcome: String, _ seconds: Double) -> Void) {
        self.requestFinished = requestFinished
    }

    /// The outcome labels passed to ``requestFinished``.
    public enum Outcome: String, Sendable, CaseIterable {
        case ok
        case httpError = "http_error"
        case timeout
        case tooLarge = "too_large"
        case cancelled
        case shutdown
        case error
    }
}
