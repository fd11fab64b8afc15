/// Who the viewer being answered is to a table whose rows differ per viewer (a config table's `forward`: its upstream
/// requests carry the viewer's name, or a header or cookie of the viewer's own request; docs/SECURITY.md, "Each
/// viewer's own upstream credentials"). Such a table's resume tokens and JSON proxy cursors are sealed for one
/// identity, its live changes are fed per identity, and a viewer it cannot serve is refused on every route.
///
/// Thread-safe: a value.
package enum ViewerPartition: Sendable, Equatable {
    /// The viewer's partition: a keyed hash of everything the table forwards for them (never the values).
    case identity(String)
    /// The viewer cannot be served (no viewer named, a forwarded header or cookie missing or not valid): why, as the
    /// viewer is told (never a value they sent).
    case refused(String)

    /// The identity; nil when refused.
    package var identity: String? {
        if case .identity(let identity) = self { identity } else { nil }
    }
}
