import JSON

/// A row's cells (``TableRenderer/appendRow(_:index:to:)``): each formatted by its column's format and escaped in
/// one pass.
///
/// Cells are read where the row holds them, never copied. A copy of a `Cell` retains its strings: an atomic
/// increment and decrement on each string's heap object, per cell (a fifth of render time in `perf` while cells were
/// copied). Swift skips that retain only when nothing between the read and the last use of the string may release
/// an object, so:
/// - `appendCell` takes the cell `borrowing`, straight from the row's storage;
/// - a text cell (nearly every cell) borrows its UTF-8 once, and every format works on those bytes
///   (`appendText(bytes:format:to:)`), calling nothing that may release (``ByteWriter``'s growth frees only bytes);
/// - the other cells (numbers, links with labels, the rare rest) take the general path below, by format.
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
    private static func appendText(bytes: UnsafeBufferPointer<UInt8>, format: ColumnFormat, to out: inout ByteWriter) {
        switch format {
        case .text, .number:
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

    /// A link with a label in a link column: an anchor for an http(s) URL, else the label as text.
    private static func appendLink(_ url: UnsafeBufferPointer<UInt8>, label: UnsafeBufferPointer<UInt8>,
                                   to out: inout ByteWriter) {
        if !appendAnchor(url, label: label, to: &out) { HTMLEscaping.appendEscaped(bytes: label, to: &out) }
    }

    // MARK: The general path (the rare cells: decimals, big integers, whole numbers in other formats)

    /// Any cell in a column of `format`: the same bytes the paths above write for the cells they take. Called with
    /// a copy (out of line, so the hot paths above copy nothing).
    @inline(never)
    private static func appendOther(_ cell: Cell, format: ColumnFormat, decimals: Int?, to out: inout ByteWriter) {
        switch format {
        case .text:
            appendText(cell, to: &out)
        case .number:
            appendNumber(cell, decimals: decimals, to: &out)
        case .date:
            if !DateFormatting.appendTime(cell, to: &out) { appendText(cell, to: &out) }
        case .link:
            appendLink(cell, to: &out)
        case .badge:
            appendBadge(cell, to: &out)
        }
    }

    /// The cell's display text, escaped. Text is escaped without copying.
    private static func appendText(_ cell: Cell, to out: inout ByteWriter) {
        switch cell {
        case .text(let text), .link(let text, _): HTMLEscaping.appendEscaped(text, to: &out)
        case .integer(let number): out.appendDecimal(Int(number))
        default: if let text = cell.displayText { HTMLEscaping.appendEscaped(text, to: &out) }
        }
    }

    private static func appendNumber(_ cell: Cell, decimals: Int?, to out: inout ByteWriter) {
        switch cell {
        case .integer(let number):
            NumberFormatting.appendGrouped(number, decimals: decimals ?? 0, to: &out)
        case .decimal(let number):
            if let decimals, NumberFormatting.appendGrouped(number, decimals: decimals, to: &out) { return }
            // A whole number below 2^53 is its integer's digits (as `displayText` spells it), grouped without text.
            if number.magnitude < 9_007_199_254_740_992, Double(Int64(number)) == number {
                NumberFormatting.appendGrouped(Int64(number), to: &out)
                return
            }
            // The shortest spelling that reads back as the same number: what the upstream wrote, less any
            // trailing zeros (3.1, 1234.5 -> 1,234.5; 1e+21 as it is).
            if let text = cell.displayText { NumberFormatting.appendGrouped(literal: text, to: &out) }
        case .bigInteger(let digits):
            NumberFormatting.appendGrouped(literal: digits, to: &out)
        default:
            appendText(cell, to: &out)
        }
    }

    /// `<a href="URL" rel="noopener noreferrer nofollow">LABEL</a>` for http(s) URLs; otherwise the
    /// label (or the value) as plain escaped text. The URL is escaped once, from the value's bytes.
    private static func appendLink(_ cell: Cell, to out: inout ByteWriter) {
        switch cell {
        case .link(let url, let label?) where !label.isEmpty:
            url.withUTF8Bytes { url in label.withUTF8Bytes { appendLink(url, label: $0, to: &out) } }
        case .text(let url), .link(let url, _):
            url.withUTF8Bytes { appendText(bytes: $0, format: .link, to: &out) }
        default:
            if let text = cell.displayText, text.withUTF8Bytes({ appendAnchor($0, label: nil, to: &out) }) { return }
            appendText(cell, to: &out)
        }
    }

    /// The `<a>` of a link cell if `url` is http(s) (``LinkFormatting/safeRange(_:)``); false (nothing written)
    /// otherwise. No `label`: the URL is its text, copied from the bytes just escaped.
    private static func appendAnchor(_ url: UnsafeBufferPointer<UInt8>, label: UnsafeBufferPointer<UInt8>?,
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
    private static func appendBadge(_ cell: Cell, to out: inout ByteWriter) {
        switch cell {
        case .text(let text), .link(let text, _): text.withUTF8Bytes { appendBadge(bytes: $0, to: &out) }
        default: if let text = cell.displayText { text.withUTF8Bytes { appendBadge(bytes: $0, to: &out) } }
        }
    }

    private static func appendBadge(bytes: UnsafeBufferPointer<UInt8>, to out: inout ByteWriter) {
        out.append("<span class=\"rs-badge rs-badge-")
        BadgeFormatting.appendSlug(bytes: bytes, to: &out)
        out.append("\">")
        HTMLEscaping.appendEscaped(bytes: bytes, to: &out)
        out.append("</span>")
    }
}
