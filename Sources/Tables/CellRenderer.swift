import JSON

/// Renders the inside of one `<td>`: a typed cell formatted by its column's format and escaped, straight into bytes.
///
/// Thread-safe: stateless.
enum CellRenderer {
    /// One column as the render loop needs it, prepared once per renderer.
    struct Plan: Sendable {
        /// `<td class="rs-c rs-FORMAT">` (and the card label).
        let opening: [UInt8]
        let format: ColumnFormat
        /// A number column's fixed decimals (``Column/decimals``).
        var decimals: Int? = nil
    }

    /// Appends the content of `cell` in a column of `format` (a number column: with `decimals` fixed decimals, or
    /// as the upstream wrote it); nothing for an empty cell.
    @inline(__always)
    static func appendContent(_ cell: Cell, format: ColumnFormat, decimals: Int? = nil, to out: inout ByteWriter) {
        if case .empty = cell { return }
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
    static func appendText(_ cell: Cell, to out: inout ByteWriter) {
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
    /// label (or the value) as plain escaped text. The URL is escaped from the value's bytes, not copied.
    private static func appendLink(_ cell: Cell, to out: inout ByteWriter) {
        var labelText: String? = nil
        if case .link(_, let label?) = cell, !label.isEmpty { labelText = label }
        var linked = false
        if var text = cell.displayText {
            linked = text.withUTF8 { bytes -> Bool in
                guard let range = LinkFormatting.safeRange(bytes) else { return false }
                let url = UnsafeBufferPointer(rebasing: bytes[range])
                out.append("<a href=\"")
                HTMLEscaping.appendEscaped(bytes: url, to: &out)
                out.append("\" rel=\"noopener noreferrer nofollow\">")
                if let labelText {
                    HTMLEscaping.appendEscaped(labelText, to: &out)
                } else {
                    HTMLEscaping.appendEscaped(bytes: url, to: &out)
                }
                out.append("</a>")
                return true
            }
        }
        guard !linked else { return }
        if let labelText { HTMLEscaping.appendEscaped(labelText, to: &out) } else { appendText(cell, to: &out) }
    }

    /// `<span class="rs-badge rs-badge-SLUG">TEXT</span>`.
    private static func appendBadge(_ cell: Cell, to out: inout ByteWriter) {
        guard let text = cell.displayText else { return }
        out.append("<span class=\"rs-badge rs-badge-")
        BadgeFormatting.appendSlug(text, to: &out)
        out.append("\">")
        HTMLEscaping.appendEscaped(text, to: &out)
        out.append("</span>")
    }
}
