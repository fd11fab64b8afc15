/// A row's own detail values (``DetailSpec``), written at the end of its `<tr>` for the page's detail view
/// (Public/detail.js) in an inert `<template>`: nothing of it is displayed, laid out or read by assistive
/// technology until the view opens.
/// ```html
/// <template class="rs-more"><div class="rs-more-field" data-label="LABEL">VALUE</div>...
/// <div class="rs-more-link"><a href="URL" rel="noopener noreferrer nofollow">LINK LABEL</a></div></template>
/// ```
/// Values are formatted as a column of the field's format would format them and escaped in the same pass; the link
/// is written only for an http(s) URL (``LinkFormatting/safeRange(_:)``). A table without a detail spec writes none
/// of this.
extension TableRenderer {
    /// The fixed markup of a spec's detail template, built once per renderer.
    struct DetailMarkup: Sendable {
        /// Each field's opening `<div ... data-label="LABEL">` and format.
        var fields: [(opening: [UInt8], format: ColumnFormat)]
        /// The link's text as the spec gives it, UTF-8 and not escaped (``appendAnchor(_:label:to:)`` escapes it as it
        /// writes it); nil: the spec has no link.
        var linkLabel: [UInt8]?

        init?(_ spec: DetailSpec?) {
            guard let spec else { return nil }
            fields = spec.fields.map { field in
                var opening: [UInt8] = []
                opening.append("<div class=\"rs-more-field\" data-label=\"")
                HTMLEscaping.appendEscaped(field.label, to: &opening)
                opening.append("\">")
                return (opening, field.format)
            }
            linkLabel = spec.link.map { _ in Array(spec.linkLabel.utf8) }
        }
    }

    /// Appends the `<template class="rs-more">` of the detail cells at `cells` (a row's ``Row/detail``, read in
    /// place): missing cells are empty fields, and a missing or non-http(s) link writes no link.
    static func appendDetail(_ cells: UnsafeBufferPointer<Cell>, markup: DetailMarkup, to out: inout ByteWriter) {
        out.append("<template class=\"rs-more\">")
        for (index, field) in markup.fields.enumerated() {
            out.append(field.opening)
            if index < cells.count {
                appendCell(at: cells.baseAddress! + index, format: field.format, decimals: nil, to: &out)
            }
            out.append("</div>")
        }
        let linkIndex = markup.fields.count
        if let label = markup.linkLabel, linkIndex < cells.count, case .link(let url, _) = cells[linkIndex] {
            appendDetailLink(url, label: label, to: &out)
        }
        out.append("</template>")
    }

    /// The detail's link to the item upstream, if `url` is http(s).
    private static func appendDetailLink(_ url: String, label: [UInt8], to out: inout ByteWriter) {
        url.withUTF8Bytes { bytes in
            guard LinkFormatting.safeRange(bytes) != nil else { return }
            out.append("<div class=\"rs-more-link\">")
            label.withUnsafeBufferPointer { _ = appendAnchor(bytes, label: $0, to: &out) }
            out.append("</div>")
        }
    }
}
