/// How many rows the whole list holds, as the source last reported it for one use (issue 28, "150 of 2,500"): a
/// config table's upstream page total (``PageChecks/totalPath``, an offset or page style's `total`), or what a code
/// table's loader reports with ``RowRequest/reportTotal(_:)``. A view of its ``RowRequest``'s (the request's copies
/// share it; two words in the box they share, not an object of its own): the viewer's session reads it when it sends
/// a batch and tells the page of a change (the `total` event, docs/PROTOCOL.md).
///
/// Thread-safe: atomic words; reported from any load, read on whatever thread sends the batch. A change is taken
/// (``takeChange()``) and what was told forgotten (``forgetTold()``, at a `reset`) by one session's events only,
/// which its data source delivers one at a time; what was reported is forgotten where a new choice is made
/// (``forgetReported()``), before its walk starts.
public struct RowTotal: Sendable {
    private let shared: RowRequest.Shared

    init(_ shared: RowRequest.Shared) { self.shared = shared }

    /// A total of its own, in no request (as library code made one before a request's total lived in the request's
    /// box): its copies share it.
    public init() { self.init(RowRequest.Shared(viewer: .nobody, logger: StandardErrorLogger())) }

    /// Records `total` (negative values are ignored).
    public func report(_ total: Int) {
        guard total >= 0 else { return }
        shared.reported.store(total, ordering: .relaxed)
    }

    /// The total last reported, nil: none.
    public var latest: Int? {
        let reported = shared.reported.load(ordering: .relaxed)
        return reported < 0 ? nil : reported
    }

    /// The total last reported if it differs from the one this returned before (nil: nothing new to tell).
    func takeChange() -> Int? {
        guard let reported = latest, reported != shared.told.load(ordering: .relaxed) else { return nil }
        shared.told.store(reported, ordering: .relaxed)
        return reported
    }

    /// Forgets what was reported and told (the list starts over with a new choice).
    func clear() {
        forgetReported()
        forgetTold()
    }

    /// Forgets what was reported: a new choice's list is decided, whose walk reports its own total (perhaps as it
    /// starts, before the `reset` goes out). Any thread.
    func forgetReported() { shared.reported.store(-1, ordering: .relaxed) }

    /// Forgets what was told: the `reset` that starts the list over went out, so its total is told again. By the
    /// session's events only.
    func forgetTold() { shared.told.store(-1, ordering: .relaxed) }
}
