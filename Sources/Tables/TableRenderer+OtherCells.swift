/// The cells ``TableRenderer/appendCell(at:format:decimals:to:)`` does not take in place (decimals, big integers,
/// links with labels, whole numbers in date, link and badge columns): by format, from a copy of the cell. Each writes
/// the same bytes as the in-place path would for the cells that path takes.
extension TableRenderer {
    /// Any cell in a column of `format`. Out of line, with a copy: in line, its calls (which may release) would make
    /// Swift retain every cell's strings on the in-place path too.
    @inline(never)
    static func appendOther(_ cell: Cell, format: ColumnFormat, decimals: Int?, to out: inout ByteWriter) {
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
        case .bar, .sparkline, .progress:
            appendChart(cell, format: format, decimals: decimals, range: nil, to: &out)
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

    /// `<span class="rs-badge rs-badge-SLUG">TEXT</span>`.
    private static func appendBadge(_ cell: Cell, to out: inout ByteWriter) {
        switch cell {
        case .text(let text), .link(let text, _): text.withUTF8Bytes { appendBadge(bytes: $0, to: &out) }
        default: if let text = cell.displayText { text.withUTF8Bytes { appendBadge(bytes: $0, to: &out) } }
        }
    }

    /// A link with a label in a link column: an anchor for an http(s) URL, else the label as text.
    private static func appendLink(_ url: UnsafeBufferPointer<UInt8>, label: UnsafeBufferPointer<UInt8>,
                                   to out: inout ByteWriter) {
        if !appendAnchor(url, label: label, to: &out) { HTMLEscaping.appendEscaped(bytes: label, to: &out) }
    }
}
