/// What memory says, now and without blocking, of a value asked of it (a viewer's first batch from a page cache):
/// the value; or that it is on its way (a fetch in flight, which calls back the asker's callback when it lands, and
/// `stop` forgets that callback); or that memory has nothing (the caller loads the value its own way).
///
/// The callback that goes with a `.pending` answer is given, when the fetch lands, what makes the value
/// (``Landed``): called (on the caller's own thread, after it checked the value is still wanted), it gives the value,
/// or nil when memory could not answer after all (then the caller loads it as if memory had said `.absent`), or the
/// error the fetch failed with: the same error a load would have had from that fetch, so the waiters of a failed
/// fetch never ask the upstream again.
public enum InMemoryAnswer<Value: Sendable>: Sendable {
    case ready(Value)
    case pending(stop: @Sendable () -> Void)
    case absent

    /// The value when the answer is `.ready`, else nil.
    @inlinable public var readyValue: Value? {
        if case .ready(let value) = self { value } else { nil }
    }

    /// The same answer with its value transformed (nil: `.absent`).
    @inlinable public func flatMap<Other: Sendable>(_ transform: (Value) -> Other?) -> InMemoryAnswer<Other> {
        switch self {
        case .ready(let value): transform(value).map { .ready($0) } ?? .absent
        case .pending(let stop): .pending(stop: stop)
        case .absent: .absent
        }
    }
}

/// A promised value once its fetch has landed: made when called, by whoever calls it (an ``InMemoryAnswer``'s callback
/// gets one, and calls it on its own thread, only if the value is still wanted: the fetch's thread does no waiter's
/// work).
public typealias Landed<Value, Failure: Error> = @Sendable () -> Result<Value, Failure>
