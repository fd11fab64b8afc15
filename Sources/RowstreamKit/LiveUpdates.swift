/// Keeps a table live while people watch it: the server re-fetches the head of the list (the first batch) every
/// `interval`, or when something POSTs `/tables/NAME/refresh`, diffs it by row key against what it last sent, and
/// streams the changes to every viewer at once: new rows inserted at the top, changed rows updated in place
/// (they flash briefly), rows gone from the list removed. Rows need a stable `row.key`.
///
/// ```swift
/// var orders = TableBinding(name: "orders", title: "Orders", columns: columns, source: source, row: template)
/// orders.live = LiveUpdates(every: .seconds(10))   // nil interval: only POST /tables/orders/refresh
/// ```
///
/// Thread-safe: an immutable value, `Sendable`.
public struct LiveUpdates: Sendable, Hashable {
    /// How often the head is re-fetched while at least one viewer watches (nil: only on POST refresh).
    public var interval: Duration?

    /// Live updates every `interval` (at least one second), or only on POST refresh when nil.
    public init(every interval: Duration? = nil) {
        self.interval = interval.map { max($0, .seconds(1)) }
    }
}
