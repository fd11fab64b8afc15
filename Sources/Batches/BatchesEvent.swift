/// The data source's output, in the order things happen. Delivered one at a time, in order, never
/// concurrently and never under the data source's lock.
///
/// Offsets count items delivered since the last reset (or since the resume point). Thread-safe: an
/// immutable value.
public enum BatchesEvent<Item: Sendable, Token: Sendable>: Sendable {
    /// A load started; `offset` = items delivered so far.
    case loading(offset: Int)
    /// A batch arrived: `offset` is the position of its first item; `next` is the token the next
    /// loadNext will load, nil when this was the last batch.
    case batch(items: [Item], offset: Int, next: Token?)
    /// Follows the last batch: there is nothing more to load; `total` items were delivered.
    case completed(total: Int)
    /// The load at `offset` failed; a loadNext retries the same token.
    case failed(LoadFailure, offset: Int)
    /// A reload happened: everything delivered before is void; offsets start again at 0.
    case reset
}

extension BatchesEvent: Equatable where Item: Equatable, Token: Equatable {}
