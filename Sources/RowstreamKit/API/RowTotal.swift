import Locking

/// How many rows the whole list holds, as the source last reported it for one use (issue 28, "150 of 2,500"): a
/// config table's upstream page total (``PageChecks/totalPath``, an offset or page style's `total`), or what a code
/// table's loader reports with ``RowRequest/reportTotal(_:)``. One per ``RowRequest`` (its copies share it): the
/// viewer's session reads it when it sends a batch and tells the page of a change (the `total` event,
/// docs/PROTOCOL.md).
///
/// Thread-safe: a `Lock`; reported from any load, read on whatever thread sends the batch.
public final class RowTotal: Sendable {
    private let state = Lock<(reported: Int?, sent: Int?)>((nil, nil))

    public init() {}

    /// Records `total` (negative values are ignored).
    public func report(_ total: Int) {
        guard total >= 0 else { return }
        state.withLock { $0.reported = total }
    }

    /// The total last reported, nil: none.
    public var latest: Int? { state.withLock { $0.reported } }

    /// The total last reported if it differs from the one this returned before (nil: nothing new to tell).
    func takeChange() -> Int? {
        state.withLock { state in
            guard let reported = state.reported, reported != state.sent else { return nil }
            state.sent = reported
            return reported
        }
    }

    /// Forgets what was reported and told (the list starts over with a new choice).
    func clear() { state.withLock { $0 = (nil, nil) } }
}
