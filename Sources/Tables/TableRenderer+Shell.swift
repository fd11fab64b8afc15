import JSON

extension TableRenderer {
    /// The whole table as the page's first paint (the DOM contract the page script and CSS rely on):
    /// ```html
    /// <table class="rs-table" id="rs-table" data-table="NAME" data-stream="URL" data-batch-size="N" aria-label="TITLE"
    ///  aria-busy="true">
    /// <colgroup><col class="rs-col-FORMAT">...</colgroup>
    /// <thead><tr><th scope="col" class="rs-c rs-FORMAT">TITLE</th>...</tr></thead>
    /// <tbody id="rs-rows"></tbody>
    /// <tbody id="rs-pending">SKELETON ROWS x skeletonCount</tbody>
    /// <tfoot id="rs-footer"></tfoot>
    /// </table>
    /// <template id="rs-skeleton-row">ONE SKELETON ROW</template>
    /// ```
    /// A grid table (``TableSpec/grid``) has class `rs-table rs-grid` and `data-layout="grid"`, and card rows.
    /// No `style` attribute (the page's CSP refuses them): column widths and a grid's card size are in
    /// ``TableStyleSheet``. All attribute values and titles are escaped. A sectioned table also
    /// has `data-sections="none|count|sum"` and `data-section-label` on the table, a section header skeleton
    /// first in `#rs-pending`, and `<template id="rs-skeleton-section">` holding it. A table with
    /// ``TableSpec/viewerFormats`` has `data-time-zone` and `data-locale` (each when set).
    public func renderShell(streamURL: String, batchSize: Int, skeletonCount: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.append(spec.grid == nil ? "<table class=\"rs-table\" id=\"rs-table\" data-table=\""
                                    : "<table class=\"rs-table rs-grid\" id=\"rs-table\" data-layout=\"grid\" data-table=\"")
        HTMLEscaping.appendEscaped(spec.name, to: &out)
        out.append("\" data-stream=\"")
        HTMLEscaping.appendEscaped(streamURL, to: &out)
        out.append("\" data-batch-size=\"")
        out.appendDecimal(batchSize)
        out.append("\"")
        out.append(contentsOf: sectionShellAttributes())
        out.append(" aria-label=\"")   // its accessible name: the table's title (docs/BROWSER.md "Keyboard")
        HTMLEscaping.appendEscaped(spec.title, to: &out)
        out.append("\"")
        if let skeleton = spec.skeleton { out.append(contentsOf: skeleton.shellAttributes.utf8) }
        out.append(contentsOf: spec.viewerFormats.shellAttributes())
        out.append(" aria-busy=\"true\">\n")
        appendColumnsAndHeader(to: &out)
        out.append("<tbody id=\"rs-rows\"></tbody>\n<tbody id=\"rs-pending\">")
        if spec.sections != nil { out.append(contentsOf: sectionHeaderSkeleton()) }
        appendSkeletonRows(count: skeletonCount, to: &out)
        out.append("</tbody>\n<tfoot id=\"rs-footer\"></tfoot>\n</table>\n<template id=\"rs-skeleton-row\">")
        out.append(contentsOf: skeletonRow())
        out.append("</template>")
        if spec.sections != nil {
            out.append("\n<template id=\"rs-skeleton-section\">")
            out.append(contentsOf: sectionHeaderSkeleton())
            out.append("</template>")
        }
        return out
    }

    /// The columns for the SSE `session` event:
    /// `[{"title": ..., "field": "path", "format": "text", "width": "8rem" or null}]`.
    /// `field` is the path's canonical spelling (a column without one: its place in the row, `c0`, `c1`, ...); an
    /// invalid width is reported as null.
    public func columnsJSON() -> JSONValue {
        .array(spec.columns.enumerated().map { index, column in
            .object([
                "title": .string(column.title),
                "field": .string(column.field?.description ?? "c\(index)"),
                "format": .string(column.format.rawValue),
                "width": column.validatedWidth.map(JSONValue.string) ?? .null,
            ])
        })
    }
}
