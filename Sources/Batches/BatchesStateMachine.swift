/// The decisions of a batches data source as a pure value: which token to load next, whether a
/// request loads anything, whether a result is current or stale. No I/O, no clock reads, no items (only
/// their count).
///
/// Each mutating method returns an ``Action`` for the owner to carry out: the owner keeps the machine
/// behind one lock, decides under it, and acts (starts loads, cancels tasks, emits events) outside it.
/// Every load gets a fresh ``LoadID``; a result, failure or timeout whose id is not the load in flight is
/// stale and ignored, so no page is delivered twice and nothing from before a reload leaks through.
///
/// - Important: a value type, not thread-safe by itself; the owner serialises access (one `Lock`).
public struct BatchesStateMachine<Token: Sendable & Equatable>: Sendable {
    @usableFromInline enum State: Sendable {
        /// Nothing in flight; the next loadNext loads `token` (after a failure, the same token again).
        case ready(token: Token, offset: Int, failure: LoadFailure?)
        /// `request` is in flight.
        case loading(LoadRequest)
        /// The last batch was delivered.
        case completed(offset: Int)
        /// The viewer left; terminal.
        case cancelled(offset: Int)
    }

    @usableFromInline var state: State
    @usableFromInline var lastID: UInt64 = 0
    @usableFromInline let initialToken: Token

    /// A machine whose first loadNext loads `start.token` at `start.offset` (resuming a viewer), or
    /// `initialToken` at offset 0. Reload always goes back to `initialToken` and offset 0.
    @inlinable public init(initialToken: Token, start: (token: Token, offset: Int)? = nil) {
        self.initialToken = initialToken
        let start = start ?? (initialToken, 0)
        precondition(start.offset >= 0, "resume offset must not be negative")
        self.state = .ready(token: start.token, offset: start.offset, failure: nil)
    }

    /// The viewer wants more: loads the next token when idle (retrying the same one after a failure);
    /// does nothing while loading, once completed, or after cancel.
    @inlinable public mutating func loadNext() -> Action {
        guard case .ready(let token, let offset, _) = state else { return .none }
        let request = makeRequest(token: token, offset: offset)
        state = .loading(request)
        return .startLoad(request)
    }

    /// Start over: voids everything delivered, drops the load in flight and loads `initialToken` at 0.
    /// Does nothing after cancel.
    @inlinable public mutating func reload() -> Action {
        let stale: LoadID?
        switch state {
        case .cancelled: return .none
        case .loading(let request): stale = request.id
        case .ready, .completed: stale = nil
        }
        let request = makeRequest(token: initialToken, offset: 0)
        state = .loading(request)
        return .reset(cancelling: stale, then: request)
    }

    /// The viewer is gone: drops the load in flight; every later call does nothing.
    @inlinable public mutating func cancel() -> Action {
        switch state {
        case .cancelled: return .none
        case .loading(let request):
            state = .cancelled(offset: request.offset)
            return .stop(cancelling: request.id)
        case .ready(_, let offset, _), .completed(let offset):
            state = .cancelled(offset: offset)
            return .stop(cancelling: nil)
        }
    }

    /// Load `id` returned `count` items and the token after them (nil: that was the last batch).
    ///
    /// A `next` equal to the token just loaded is treated as the end of the list: loading it again
    /// would fetch the same page twice (an upstream whose cursor does not advance).
    @inlinable public mutating func loadSucceeded(_ id: LoadID, count: Int, next: Token?) -> Action {
        guard case .loading(let request) = state, request.id == id else { return .none }
        precondition(count >= 0, "a batch cannot have a negative count")
        let total = request.offset + count
        if let next, next != request.token {
            state = .ready(token: next, offset: total, failure: nil)
            return .deliver(offset: request.offset, next: next, completedTotal: nil)
        }
        state = .completed(offset: total)
        return .deliver(offset: request.offset, next: nil, completedTotal: total)
    }

    /// Load `id` failed; the next loadNext retries the same token.
    @inlinable public mutating func loadFailed(_ id: LoadID, _ failure: LoadFailure) -> Action {
        guard case .loading(let request) = state, request.id == id else { return .none }
        state = .ready(token: request.token, offset: request.offset, failure: failure)
        return .fail(failure, offset: request.offset, cancelling: nil)
    }

    /// Load `id` outlived its timeout: it fails as ``LoadFailure/timedOut`` and its task should be
    /// cancelled; a result arriving later is stale.
    @inlinable public mutating func loadTimedOut(_ id: LoadID) -> Action {
        guard case .loading(let request) = state, request.id == id else { return .none }
        state = .ready(token: request.token, offset: request.offset, failure: .timedOut)
        return .fail(.timedOut, offset: request.offset, cancelling: id)
    }

    /// The load in flight, if any.
    @inlinable public var currentLoad: LoadRequest? {
        guard case .loading(let request) = state else { return nil }
        return request
    }

    /// The outputs as of now.
    @inlinable public var snapshot: BatchesSnapshot<Token> {
        switch state {
        case .ready(let token, let offset, let failure):
            BatchesSnapshot(isLoading: false, isCompleted: false, error: failure, offset: offset, nextToken: token)
        case .loading(let request):
            BatchesSnapshot(isLoading: true, isCompleted: false, error: nil, offset: request.offset,
                            nextToken: request.token)
        case .completed(let offset):
            BatchesSnapshot(isLoading: false, isCompleted: true, error: nil, offset: offset, nextToken: nil)
        case .cancelled(let offset):
            BatchesSnapshot(isLoading: false, isCompleted: false, error: nil, offset: offset, nextToken: nil,
                            isCancelled: true)
        }
    }

    @inlinable mutating func makeRequest(token: Token, offset: Int) -> LoadRequest {
        lastID += 1
        return LoadRequest(id: LoadID(rawValue: lastID), token: token, offset: offset)
    }
}
