/// The data source's outputs at one instant (the web form of `isLoading`, `isCompleted`, `error`), plus
/// where the list stands. Thread-safe: an immutable value.
public struct BatchesSnapshot<Token: Sendable>: Sendable {
    /// A load is in flight.
    public var isLoading: Bool
    /// The last batch has been delivered; loadNext does nothing until a reload.
    public var isCompleted: Bool
    /// The failure of the last load, until the next load starts.
    public var error: LoadFailure?
    /// Items delivered so far (since the last reset, or from the resume offset).
    public var offset: Int
    /// The token the next loadNext loads (or is loading); nil when completed or cancelled.
    public var nextToken: Token?
    /// ``BatchesDataSource/cancel()`` was called: nothing more happens.
    public var isCancelled: Bool

    /// Creates a snapshot.
    @inlinable public init(isLoading: Bool, isCompleted: Bool, error: LoadFailure?, offset: Int, nextToken: Token?,
                isCancelled: Bool = false) {
        self.isLoading = isLoading
        self.isCompleted = isCompleted
        self.error = error
        self.offset = offset
        self.nextToken = nextToken
        self.isCancelled = isCancelled
    }
}

extension BatchesSnapshot: Equatable where Token: Equatable {}
