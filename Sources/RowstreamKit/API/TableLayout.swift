import Tables

/// How a table draws its items: rows, or cards in a responsive grid (the `itemsSubscriber` collection layout of
/// the originals). A card shows `row.cardImage` (an http(s) URL; else a monogram of the title), `row.cardTitle`
/// and the columns as labelled fields; skeleton cards have the same shape; batching, infinite scroll, live updates
/// and the protocol are the same as for rows.
///
/// ```swift
/// TableBinding(name: "people", title: "People", columns: [TableColumn("City")], layout: .grid,
///              source: source) { person, row in
///     row.cardTitle = person.name
///     row.cardImage = person.avatarURL
///     row.text(person.city)
/// }
/// ```
///
/// Thread-safe: a value, `Sendable`.
public enum TableLayout: Sendable, Hashable {
    /// One `<tr>` per item (the default).
    case rows
    /// One card per item, in a grid.
    case grid

    var spec: GridSpec? {
        switch self {
        case .rows: nil
        case .grid: GridSpec(titleField: nil)   // the rows come with their card title and image
        }
    }
}
