extension TableRenderer {
    /// A skeleton row of `cellOpenings`: `<tr class="rs-skeleton" aria-hidden="true">` (a card's with its head),
    /// each cell holding `<span class="rs-bone"></span>`, or the bones of its chart's shape (``chartBones(_:)``).
    static func skeletonRow(cellOpenings: [[UInt8]], formats: [ColumnFormat], isCard: Bool) -> [UInt8] {
        var skeleton: [UInt8] = []
        if isCard {
            skeleton.append("<tr class=\"rs-skeleton rs-card\" aria-hidden=\"true\">")
            skeleton.append(contentsOf: Self.cardHeadSkeleton)
        } else {
            skeleton.append("<tr class=\"rs-skeleton\" aria-hidden=\"true\">")
        }
        for (opening, format) in zip(cellOpenings, formats) {
            skeleton.append(contentsOf: opening)
            skeleton.append(contentsOf: (chartBones(format) ?? "<span class=\"rs-bone\"></span>").utf8)
            skeleton.append("</td>")
        }
        skeleton.append("</tr>")
        return skeleton
    }

    /// A chart cell's bones, shaped as its content (app.css "Charts"): a bar's or progress's value and chart, a
    /// sparkline's chart; nil for other formats.
    static func chartBones(_ format: ColumnFormat) -> String? {
        switch format {
        case .bar, .progress: "<span class=\"rs-bone rs-bone-v\"></span><span class=\"rs-bone rs-bone-chart\"></span>"
        case .sparkline: "<span class=\"rs-bone rs-bone-chart\"></span>"
        default: nil
        }
    }

    /// One skeleton row: `<tr class="rs-skeleton" aria-hidden="true">` with the same cells and classes
    /// as a real row, each holding `<span class="rs-bone"></span>`.
    public func skeletonRow() -> [UInt8] {
        skeleton
    }

    /// `count` skeleton rows back to back (none for count <= 0).
    public func skeletonRows(count: Int) -> [UInt8] {
        var buffer: [UInt8] = []
        appendSkeletonRows(count: count, to: &buffer)
        return buffer
    }

    /// Appends `count` skeleton rows (none for count <= 0).
    public func appendSkeletonRows(count: Int, to buffer: inout [UInt8]) {
        guard count > 0 else { return }
        buffer.reserveCapacity(buffer.count + skeleton.count * count)
        for _ in 0..<count { buffer.append(contentsOf: skeleton) }
    }
}
