/// The cells of the chart formats (bar, sparkline, progress): the value's text and its inline SVG
/// (``ChartFormatting``). Out of the hot path: a row's loop sends only chart columns here.
///
/// A bar's range is its column's ``Column/range``; without one, the range of the rows rendered together (one batch,
/// or a live row alone) and zero. A batch's bars are to scale among themselves; rows already sent are never redrawn,
/// so a table whose bars must compare across batches (or live rows) configures a range.
extension TableRenderer {
    /// Per column, the range a bar column draws `rows` against (nil for other columns); empty when the table has no
    /// bar column.
    func barRanges<C: Collection<Row>>(_ rows: C) -> [ClosedRange<Double>?] {
        guard spec.columns.contains(where: { $0.format == .bar }) else { return [] }
        return spec.columns.indices.map { index in
            let column = spec.columns[index]
            guard column.format == .bar else { return nil }
            return column.range ?? ChartFormatting.observedRange(rows, column: index)
        }
    }

    /// The cell `cell` in a chart column of `format`: nothing for an empty cell, a bad value's empty span, or the
    /// value's text and chart.
    @inline(never)
    static func appendChart(_ cell: Cell, format: ColumnFormat, decimals: Int?, range: ClosedRange<Double>?,
                            to out: inout ByteWriter) {
        if case .empty = cell { return }
        switch format {
        case .sparkline:
            guard case .series(let numbers) = cell, !numbers.isEmpty else { return appendBad(cell, to: &out) }
            ChartFormatting.appendSparkline(numbers, to: &out)
        case .progress:
            // A fraction whose percentage is beyond Double (above ~1.8e306) is a value no progress can show.
            guard let fraction = ChartFormatting.number(cell), (fraction * 100).isFinite else {
                return appendBad(cell, to: &out)
            }
            out.append("<span class=\"rs-v\">")
            if !NumberFormatting.appendGrouped(fraction * 100, decimals: decimals ?? 0, to: &out) {
                out.appendUTF8(Cell.json(fraction * 100).displayText ?? "")
            }
            out.append("%</span>")
            ChartFormatting.appendProgress(fraction, to: &out)
        default:
            guard let value = ChartFormatting.number(cell) else { return appendBad(cell, to: &out) }
            out.append("<span class=\"rs-v\">")
            if case .text = cell {
                appendOther(.decimal(value), format: .number, decimals: decimals, to: &out)
            } else {
                appendOther(cell, format: .number, decimals: decimals, to: &out)
            }
            out.append("</span>")
            ChartFormatting.appendBar(value, range: range, to: &out)
        }
    }

    private static func appendBad(_ cell: Cell, to out: inout ByteWriter) {
        ChartFormatting.appendBad(cell.displayText ?? "", to: &out)
    }
}
