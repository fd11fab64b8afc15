import JSON

/// A table drawn as cards in a responsive grid instead of rows (the collection layout of the originals): each
/// item is a card with an image (or a monogram of its title when there is no http(s) image), a title, and the
/// table's columns as labelled fields. The markup stays a table (`<tr class="rs-card">`, one `<td>` per part) so
/// batching, skeletons, live updates and the protocol are the same; CSS lays the rows out as a grid of cards of
/// one fixed height, and skeleton cards have exactly the same parts.
///
/// Thread-safe: an immutable value, `Sendable`.
public struct GridSpec: Sendable, Hashable {
    /// Where each item's image URL lives (nil: monograms only).
    public var imageField: JSONPath?
    /// Where each item's card title lives (nil: the row template sets `Row.cardTitle`, and `Row.cardImage`).
    public var titleField: JSONPath?

    /// Creates a grid spec.
    public init(titleField: JSONPath?, imageField: JSONPath? = nil) {
        self.titleField = titleField
        self.imageField = imageField
    }
}

extension TableRenderer {
    /// The card's image cell and title cell for `row`: escaped; an `<img>` only for an http(s) URL.
    func appendCardHead(_ row: Row, to buffer: inout ByteWriter) {
        let title = row.cardTitle
        buffer.append("<td class=\"rs-card-media\">")
        if let image = row.cardImage, let url = LinkFormatting.safeURL(image) {
            buffer.append("<img src=\"")
            HTMLEscaping.appendEscaped(url, to: &buffer)
            buffer.append("\" alt=\"\" loading=\"lazy\" referrerpolicy=\"no-referrer\">")
        } else {
            buffer.append("<span class=\"rs-monogram\" aria-hidden=\"true\">")
            HTMLEscaping.appendEscaped(Self.monogram(title), to: &buffer)
            buffer.append("</span>")
        }
        buffer.append("</td><td class=\"rs-card-title\">")
        HTMLEscaping.appendEscaped(title, to: &buffer)
        buffer.append("</td>")
    }

    /// Up to two initials: the first letters of the first two words.
    static func monogram(_ title: String) -> String {
        let words = title.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "." }).prefix(2)
        return String(words.compactMap { $0.first.map(Character.init) }).uppercased()
    }

    /// The skeleton of a card's image and title cells.
    static let cardHeadSkeleton: [UInt8] = Array(
        "<td class=\"rs-card-media\"><span class=\"rs-bone\"></span></td><td class=\"rs-card-title\"><span class=\"rs-bone\"></span></td>".utf8)
}
