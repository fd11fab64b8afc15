/// Keeps a table live while people watch it: the server re-fetches the head of the list (the first batch) every
/// `interval`, or when something POSTs `/tables/NAME/refresh`, diffs it by row key against what it last sent, and
/// streams the changes to every viewer at once: new rows inserted at the top, changed rows updated in place
/// (they flash briefly), rows gone from the list removed. Rows need a stable `row.key`.
///
/// ```swift
/// var orders = TableBinding(name: "orders", title: "Orders", columns: columns, source: source, row: template)
/// orders.live = LiveUpdates(every: .seconds(10))   // nil interval: only POST /tables/orders/refresh
/// orders.live = LiveUpdates(limit: RefreshLimit(perMinute: 6, burst: 2))   // POSTs: 2 at once, then 6 a minute
/// ```
///
/// Thread-safe: an immutable value, `Sendable`.
public struct LiveUpdates: Sendable, Hashable {
    /// How often the head is re-fetched while at least one viewer watches (nil: only on POST refresh).
    public var interval: Duration?
    /// How often clients may start a refresh with POST (``RefreshLimit``; the interval's own refreshes are free).
    public var limit: RefreshLimit
    /// For a table whose rows differ per viewer (a config table's `forward`): at most this many identities' live
    /// feeds at once on a server, each with its own refresher (docs/SECURITY.md). A viewer of one more identity is
    /// refused (`503`) until one ends.
    public var maxPartitions = 256

    /// Live updates every `interval` (at least one second), or only on POST refresh when nil; POSTed refreshes
    /// limited by `limit`.
    public init(every interval: Duration? = nil, limit: RefreshLimit = .standard) {
        self.interval = interval.map { max($0, .seconds(1)) }
        self.limit = limit
    }
}
