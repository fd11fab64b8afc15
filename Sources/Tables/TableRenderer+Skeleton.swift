extension TableRenderer {
    /// A skeleton row of `cellOpenings`: `<tr class="rs-skeleton" aria-hidden="true">` (a card's with its head),
    /// each cell holding `<span class="rs-bone"></span>`.
    static func skeletonRow(cellOpenings: [[UInt8]], isCard: Bool) -> [UInt8] {
        var skeleton: [UInt8] = []
        if isCard {
            skeleton.append("<tr class=\"rs-skeleton rs-card\" aria-hidden=\"true\">")
            skeleton.append(contentsOf: Self.cardHeadSkeleton)
        } else {
            skeleton.append("<tr class=\"rs-skeleton\" aria-hidden=\"true\">")
        }
        for opening in cellOpenings {
            skeleton.append(contentsOf: opening)
            skeleton.append("<span class=\"rs-bone\"></span></td>")
        }
        skeleton.append("</tr>")
        return skeleton
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
