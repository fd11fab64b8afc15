import JSON

/// Renders the inside of one `<td>` for a column: the value formatted and escaped, straight into bytes.
///
/// Thread-safe: stateless.
enum CellRenderer {
    /// Appends the cell content for `column` from `item`; nothing when the value is missing or null.
    static func appendContent(of column: Column, item: JSONValue, to buffer: inout [UInt8]) {
        guard let value = column.field.evaluate(item), !value.isNull else { return }
        switch column.format {
        case .text:
            appendText(value, to: &buffer)
        case .number:
            appendNumber(value, to: &buffer)
        case .date:
            if !DateFormatting.appendTime(value, to: &buffer) { appendText(value, to: &buffer) }
        case .link:
            appendLink(value, label: column.labelField.flatMap { $0.evaluate(item) }, to: &buffer)
        case .badge:
            appendBadge(value, to: &buffer)
        }
    }

    /// The value's display text, escaped. Strings are escaped without copying.
    static func appendText(_ value: JSONValue, to buffer: inout [UInt8]) {
        switch value {
        case .string(let s): HTMLEscaping.appendEscaped(s, to: &buffer)
        case .int(let i): buffer.appendDecimal(Int(i))
        default: if let text = value.displayText { HTMLEscaping.appendEscaped(text, to: &buffer) }
        }
    }

    private static func appendNumber(_ value: JSONValue, to buffer: inout [UInt8]) {
        switch value {
        case .int(let i):
            NumberFormatting.appendGrouped(i, to: &buffer)
        case .double(let d):
            if !NumberFormatting.appendGrouped(d, to: &buffer) { appendText(value, to: &buffer) }
        case .bigInteger(let literal):
            NumberFormatting.appendGrouped(literal: literal, to: &buffer)
        default:
            appendText(value, to: &buffer)
        }
    }

    /// `<a href="URL" rel="noopener noreferrer nofollow">LABEL</a>` for http(s) URLs; otherwise the
    /// label (or the value) as plain escaped text.
    private static func appendLink(_ value: JSONValue, label: JSONValue?, to buffer: inout [UInt8]) {
        let labelText = label?.displayText.flatMap { $0.isEmpty ? nil : $0 }
        guard let text = value.displayText, let url = LinkFormatting.safeURL(text) else {
            if let labelText { HTMLEscaping.appendEscaped(labelText, to: &buffer) } else { appendText(value, to: &buffer) }
            return
        }
        buffer.append("<a href=\"")
        HTMLEscaping.appendEscaped(url, to: &buffer)
        buffer.append("\" rel=\"noopener noreferrer nofollow\">")
        HTMLEscaping.appendEscaped(labelText ?? url, to: &buffer)
        buffer.append("</a>")
    }

    /// `<span class="rs-badge rs-badge-SLUG">TEXT</span>`.
    private static func appendBadge(_ value: JSONValue, to buffer: inout [UInt8]) {
        guard let text = value.displayText else { return }
        buffer.append("<span class=\"rs-badge rs-badge-")
        BadgeFormatting.appendSlug(text, to: &buffer)
        buffer.append("\">")
        HTMLEscaping.appendEscaped(text, to: &buffer)
        buffer.append("</span>")
    }
}
