/// A row's cells (``TableRenderer/appendRow(_:index:to:)``): each formatted by its column's format and escaped in
/// one pass (the rare cells: TableRenderer+OtherCells.swift).
///
/// Cells are read where the row holds them, never copied. A copy of a `Cell` retains its strings: an atomic
/// increment and decrement on each string's heap object, per cell (a fifth of render time in `perf` while cells were
/// copied). Swift leaves a string unretained only while nothing between its read and its last use may release an
/// object, so:
/// - `appendCell` reads the cell through a pointer into the row's storage, and takes each case's payload there;
/// - a text cell or a link without a label (nearly every cell) borrows its UTF-8 once, and every format works on
///   those bytes (`appendText(bytes:format:to:)`), calling nothing that may release (``ByteWriter``'s growth frees
///   only bytes, and says so);
/// - whole numbers in text and number columns need no string;
/// - the other cells (decimals, big integers, links with labels) go out of line, with a copy.
extension TableRenderer {
    /// Appends the content of the cell at `cell` (in a row's storage) in a column of `format` (a number column: with
    /// `decimals` fixed decimals, or as the upstream wrote it); nothing for an empty cell.
    @inline(__always)
    static func appendCell(at cell: UnsafePointer<Cell>, format: ColumnFormat, decimals: Int?,
                           to out: inout ByteWriter) {
        switch cell.pointee {
        case .empty:
            return
        case .text(let text):
            text.withUTF8Bytes { appendText(bytes: $0, format: format, to: &out) }
        case .link(let url, label: nil):
            // A link without a label is its URL as text, in every format (in a link column: an anchor if http(s)).
            url.withUTF8Bytes { appendText(bytes: $0, format: format, to: &out) }
        case .integer(let number) where format == .text:
            out.appendDecimal(Int(number))
        case .integer(let number) where format == .number:
            NumberFormatting.appendGrouped(number, decimals: decimals ?? 0, to: &out)
        default:
            appendOther(cell.pointee, format: format, decimals: decimals, to: &out)
        }
    }

    /// A text cell's bytes in a column of `format`: a number column prints text as text, a date column the date it
    /// holds (else the text), a link column an anchor for an http(s) URL (else the text), a badge column a badge.
    static func appendText(bytes: UnsafeBufferPointer<UInt8>, format: ColumnFormat, to out: inout ByteWriter) {
        switch format {
        case .text, .number, .bar, .sparkline, .progress:   // charts: TableRenderer+Charts.swift
            HTMLEscaping.appendEscaped(bytes: bytes, to: &out)
        case .date:
            if let parsed = DateFormatting.parse(bytes: bytes) {
                DateFormatting.appendTime(parsed, to: &out)
            } else {
                HTMLEscaping.appendEscaped(bytes: bytes, to: &out)
            }
        case .link:
            if !appendAnchor(bytes, label: nil, to: &out) { HTMLEscaping.appendEscaped(bytes: bytes, to: &out) }
        case .badge:
            appendBadge(bytes: bytes, to: &out)
        }
    }

    /// The `<a>` of a link cell if `url` is http(s) (``LinkFormatting/safeRange(_:)``); false (nothing written)
    /// otherwise. No `label`: the URL is its text, copied from the bytes just escaped.
    static func appendAnchor(_ url: UnsafeBufferPointer<UInt8>, label: UnsafeBufferPointer<UInt8>?,
                             to out: inout ByteWriter) -> Bool {
        guard let range = LinkFormatting.safeRange(url) else { return false }
        out.append("<a href=\"")
        let escapedURL = out.count
        HTMLEscaping.appendEscaped(bytes: UnsafeBufferPointer(rebasing: url[range]), to: &out)
        let escapedURLEnd = out.count
        out.append("\" rel=\"noopener noreferrer nofollow\">")
        if let label {
            HTMLEscaping.appendEscaped(bytes: label, to: &out)
        } else {
            out.appendWritten(escapedURL..<escapedURLEnd)
        }
        out.append("</a>")
        return true
    }

    /// `<span class="rs-badge rs-badge-SLUG">TEXT</span>`.
    static func appendBadge(bytes: UnsafeBufferPointer<UInt8>, to out: inout ByteWriter) {
        out.append("<span class=\"rs-badge rs-badge-")
        BadgeFormatting.appendSlug(bytes: bytes, to: &out)
        out.append("\">")
        HTMLEscaping.appendEscaped(bytes: bytes, to: &out)
        out.append("</span>")
    }
}
