import JSON

extension TableRenderer {
    /// A section's header row, as the server writes it into a `rows` fragment:
    /// `<tr class="rs-section-head" data-section="V"><th scope="rowgroup" colspan="N"><span
    /// class="rs-section-title">V</span> <span class="rs-section-count"></span></th></tr>`. The page fills the
    /// count (it grows as batches continue the section); clients that keep only rows with `data-index` skip it.
    public func sectionHeader(_ section: String) -> [UInt8] {
        var writer = ByteWriter(capacity: 256)
        appendSectionHeader(section, to: &writer)
        return writer.bytes
    }

    func appendSectionHeader(_ section: String, to buffer: inout ByteWriter) {
        buffer.append("<tr class=\"rs-section-head\" data-section=\"")
        HTMLEscaping.appendEscaped(section, to: &buffer)
        buffer.append("\"><th scope=\"rowgroup\" colspan=\"")
        buffer.appendDecimal(spec.columns.count)
        buffer.append("\"><span class=\"rs-section-title\">")
        HTMLEscaping.appendEscaped(section.isEmpty ? "(none)" : section, to: &buffer)
        buffer.append("</span> <span class=\"rs-section-count\"></span></th></tr>")
    }

    func appendSectionAttributes(_ sections: SectionSpec, row: Row, to buffer: inout ByteWriter) {
        buffer.append("\" data-section=\"")
        HTMLEscaping.appendEscaped(row.section, to: &buffer)
        if case .sum = sections.footer, let summand = row.sectionValue {
            buffer.append("\" data-value=\"")
            buffer.appendUTF8(Self.numberText(summand))
        }
    }

    /// A finite double as plain decimal text (`12`, `12.5`).
    static func numberText(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// The skeleton of a section header row (first paint and the first pending batch of a sectioned table).
    public func sectionHeaderSkeleton() -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.append("<tr class=\"rs-skeleton rs-section-head\" aria-hidden=\"true\"><th colspan=\"")
        buffer.appendDecimal(spec.columns.count)
        buffer.append("\"><span class=\"rs-bone\"></span></th></tr>")
        return buffer
    }

    /// The `data-sections` and `data-section-label` attributes of the shell (empty for a plain table).
    func sectionShellAttributes() -> [UInt8] {
        guard let sections = spec.sections else { return [] }
        var buffer: [UInt8] = []
        buffer.append(" data-sections=\"")
        buffer.append(contentsOf: sections.footer.name.utf8)
        buffer.append("\" data-section-label=\"")
        HTMLEscaping.appendEscaped(sections.footerLabel, to: &buffer)
        buffer.append("\"")
        return buffer
    }
}
