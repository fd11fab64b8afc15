/// What a loader is made for: one viewer's walk through a table (with the sort and filter its controls chose;
/// empty: none, the table as configured), or a live refresh of the head, read past any cache. A source makes one
/// loader per use (``BatchSource``), so a loader may keep state for its walk.
///
/// Thread-safe: an immutable value.
package enum LoaderUse: Sendable {
    /// The upstream query parameters a viewer's controls chose (``TableControl``), in control order.
    package typealias Query = [(name: String, value: String)]

    /// A viewer's walk (also a no-script page or a refetch: a walk of its own).
    case viewer(query: Query)
    /// A live refresh of the head, past any cache; a source with a cache puts what it read into it before the load
    /// returns (then the changes go out), so viewers who come after them start from the refreshed head.
    case fresh

    /// A walk of the table as configured.
    static let plain = LoaderUse.viewer(query: [])
}
