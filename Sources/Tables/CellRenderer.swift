import JSON

/// Renders the inside of one `<td>` for a column: the value formatted and escaped, straight into bytes.
///
/// Thread-safe: stateless.
enum CellRenderer {
    /// One column as the render loop needs it, prepared once per renderer.
    struct Plan: Sendable {
        /// `<td class="rs-c rs-FORMAT">` (and the card label).
        let opening: [UInt8]
        let field: FieldLookup
        let format: ColumnFormat
        let label: FieldLookup?

        init(column: Column, opening: [UInt8]) {
            self.opening = opening
            field = FieldLookup(column.field)
            format = column.format
            label = column.labelField.map(FieldLookup.init)
        }
    }

    /// Appends the cell content for `plan` from `item`; nothing when the value is missing or null.
    static func appendContent(of plan: Plan, item: JSONValue, to out: inout ByteWriter) {
        guard let value = plan.field.evaluate(item), !value.isNull else { return }
        switch plan.format {
        case .text:
            appendText(value, to: &out)
        case .number:
            appendNumber(value, to: &out)
        case .date:
            if !DateFormatting.appendTime(value, to: &out) { appendText(value, to: &out) }
        case .link:
            appendLink(value, label: plan.label.flatMap { $0.evaluate(item) }, to: &out)
        case .badge:
            appendBadge(value, to: &out)
        }
    }

    /// The value's display text, escaped. Strings are escaped without copying.
    static func appendText(_ value: JSONValue, to out: inout ByteWriter) {
        switch value {
        case .string(let s): HTMLEscaping.appendEscaped(s, to: &out)
        case .int(let i): out.appendDecimal(Int(i))
        default: if let text = value.displayText { HTMLEscaping.appendEscaped(text, to: &out) }
        }
    }

    private static func appendNumber(_ value: JSONValue, to out: inout ByteWriter) {
        switch value {
        case .int(let i):
            NumberFormatting.appendGrouped(i, to: &out)
        case .double(let d):
            if !NumberFormatting.appendGrouped(d, to: &out) { appendText(value, to: &out) }
        case .bigInteger(let literal):
            NumberFormatting.appendGrouped(literal: literal, to: &out)
        default:
            appendText(value, to: &out)
        }
    }

    /// `<a href="URL" rel="noopener noreferrer nofollow">LABEL</a>` for http(s) URLs; otherwise the
    /// label (or the value) as plain escaped text. The URL is escaped from the value's bytes, not copied.
    private static func appendLink(_ value: JSONValue, label: JSONValue?, to out: inout ByteWriter) {
        let labelText = label?.displayText.flatMap { $0.isEmpty ? nil : $0 }
        var linked = false
        if var text = value.displayText {
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
        if let labelText { HTMLEscaping.appendEscaped(labelText, to: &out) } else { appendText(value, to: &out) }
    }

    /// `<span class="rs-badge rs-badge-SLUG">TEXT</span>`.
    private static func appendBadge(_ value: JSONValue, to out: inout ByteWriter) {
        guard let text = value.displayText else { return }
        out.append("<span class=\"rs-badge rs-badge-")
        BadgeFormatting.appendSlug(text, to: &out)
        out.append("\">")
        HTMLEscaping.appendEscaped(text, to: &out)
        out.append("</span>")
    }
}
