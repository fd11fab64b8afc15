/// How a table's data cells open in the `rows` a stream sends (docs/PROTOCOL.md, "Bare cells"): `classed`, the
/// contract's `<td class="rs-c rs-FORMAT">`, or `bare`, `<td>` alone. Every column's cells carry the same classes, so
/// a client that knows them (the bundled page reads them off its skeleton row) can ask for bare cells and put the
/// classes back itself: the first batch of the demo table is then about 30% smaller on an uncompressed stream, and
/// a browser parses less. Cards (``TableSpec/grid``) stay classed: their cells carry labels too.
///
/// A plain value: safe from any thread.
public enum CellMarkup: String, Sendable {
    case classed
    case bare

    /// The form a stream's `cells` parameter asks for: absent is `classed`; nil for any other value than the two.
    public init?(parameter: String?) {
        guard let parameter else {
            self = .classed
            return
        }
        self.init(rawValue: parameter)
    }
}
