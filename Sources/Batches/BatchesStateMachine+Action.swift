extension BatchesStateMachine {
    /// Identifies one load; a fresh id per load, so a stale result is recognised by its id alone.
    /// Thread-safe: an immutable value.
    public struct LoadID: Hashable, Sendable, CustomStringConvertible {
        /// Increasing within one machine, starting at 1.
        public let rawValue: UInt64

        /// Wraps a raw id.
        @inlinable public init(rawValue: UInt64) { self.rawValue = rawValue }

        public var description: String { "load#\(rawValue)" }
    }

    /// One load to run: call the loader with `token`; its items start at `offset`.
    /// Thread-safe: an immutable value.
    public struct LoadRequest: Sendable, Equatable {
        /// Pass back with the outcome.
        public let id: LoadID
        /// The token to hand the loader.
        public let token: Token
        /// Items delivered before this batch.
        public let offset: Int

        /// Creates a request.
        @inlinable public init(id: LoadID, token: Token, offset: Int) {
            self.id = id
            self.token = token
            self.offset = offset
        }
    }

    /// What the owner must do after a transition, outside its lock. Thread-safe: an immutable value.
    public enum Action: Sendable, Equatable {
        /// Nothing: the call changed nothing (a duplicate loadNext, a stale result, ...).
        case none
        /// Emit `.loading(offset: request.offset)` and run the loader for `request`.
        case startLoad(LoadRequest)
        /// Emit `.reset`, cancel the task of `cancelling` (if any), then act as ``startLoad(_:)``.
        case reset(cancelling: LoadID?, then: LoadRequest)
        /// Emit the batch at `offset` with `next`; when `completedTotal` is set, follow it with
        /// `.completed(total:)`.
        case deliver(offset: Int, next: Token?, completedTotal: Int?)
        /// Emit `.failed(failure, offset:)` and cancel the task of `cancelling` (if any: a timeout).
        case fail(LoadFailure, offset: Int, cancelling: LoadID?)
        /// The viewer is gone: cancel the task of `cancelling` (if any) and emit nothing more.
        case stop(cancelling: LoadID?)
    }
}
