import JSON

/// The inline SVG of the chart formats (``ColumnFormat/bar``, ``ColumnFormat/sparkline``,
/// ``ColumnFormat/progress``), written straight into bytes.
///
/// - Attributes only: no `style` attribute and no `<style>` (the page's CSP refuses both); the paint is app.css's
///   ("Charts": the track as the chart's background, `.rs-fill`, `.rs-line`'s stroke in `currentColor`, through
///   `--rs-chart-*` properties).
/// - Compact: one shared viewBox (``width`` x ``height``) stretched to the cell by CSS, integer coordinates, a bar
///   or progress is one `<rect>`, a sparkline one `<polyline>` of at most ``maximumPoints`` points.
/// - Every chart is `aria-hidden`: its value is text beside it (a bar's grouped number, a progress's percentage,
///   visible) or after it (a sparkline's numbers, in a visually hidden span), so screen readers and copy/paste get
///   it.
/// - A value a chart cannot show (not a number, not finite, an array with anything but numbers) is an empty
///   `<span class="rs-bad" title="RAW">` with the raw text, escaped, as its title.
///
/// Thread-safe: stateless.
enum ChartFormatting {
    /// The viewBox's width and height.
    static let width = 100, height = 20
    /// The most points a sparkline draws: its last ones (a longer series would cost bytes the cell cannot show).
    static let maximumPoints = 60

    static let svgOpening: StaticString = "<svg class=\"rs-chart\" viewBox=\"0 0 100 20\" preserveAspectRatio=\"none\" aria-hidden=\"true\">"

    /// A bar of `value` against `range` (nil: empty), from zero (clamped into the range) to the value, then the
    /// value's text, written by `text`.
    static func appendBar(_ value: Double, range: ClosedRange<Double>?, to out: inout ByteWriter) {
        out.append(svgOpening)
        var start = 0, end = 0
        if let range {
            let zero = min(max(0, range.lowerBound), range.upperBound)
            start = position(zero, in: range)
            end = position(value, in: range)
        }
        out.append("<rect class=\"rs-fill\" ")
        if min(start, end) > 0 {
            out.append("x=\"")
            out.appendDecimal(min(start, end))
            out.append("\" ")
        }
        out.append("width=\"")
        out.appendDecimal(abs(end - start))
        out.append("\" height=\"20\"/></svg>")
    }

    /// A progress bar of `fraction` (0...1, drawn clamped).
    static func appendProgress(_ fraction: Double, to out: inout ByteWriter) {
        out.append(svgOpening)
        out.append("<rect class=\"rs-fill\" width=\"")
        out.appendDecimal(position(fraction, in: 0...1))
        out.append("\" height=\"20\"/></svg>")
    }

    /// A line through the last ``maximumPoints`` of `numbers` (not empty, finite), scaled to their own smallest and
    /// largest (a flat series: a line across the middle), then the same numbers as visually hidden text.
    static func appendSparkline(_ numbers: [Double], to out: inout ByteWriter) {
        let shown = numbers.suffix(maximumPoints)
        let low = shown.min() ?? 0, high = shown.max() ?? 0
        out.append(svgOpening)
        out.append("<polyline class=\"rs-line\" points=\"")
        let last = shown.count - 1
        for (offset, number) in shown.enumerated() {
            if offset > 0 { out.append(UInt8(ascii: " ")) }
            out.appendDecimal(last == 0 ? offset * width : offset * width / last)
            out.append(UInt8(ascii: ","))
            // y from 1 (highest) to height - 1 (lowest): the stroke stays inside the box. Halves: the difference of
            // any two finite numbers is then finite (1.7e308 - -1.7e308 is not).
            let y = high > low ? 1 + scaled(high / 2 - number / 2, of: high / 2 - low / 2, on: height - 2) : height / 2
            out.appendDecimal(y)
        }
        if last == 0 { out.append(" 100,10") }   // one point: a level line
        out.append("\"/></svg><span class=\"rs-visually-hidden\">")
        for (offset, number) in shown.enumerated() {
            if offset > 0 { out.append(", ") }
            appendNumber(number, to: &out)
        }
        out.append("</span>")
    }

    /// `number` as JSON spells it (``Cell/json(_:)``), a whole one without making a string.
    static func appendNumber(_ number: Double, to out: inout ByteWriter) {
        if number.magnitude < 9_007_199_254_740_992, number.rounded() == number {
            out.appendDecimal(Int(number))
        } else {
            out.appendUTF8(JSONValue.double(number).displayText ?? "")
        }
    }

    /// A value no chart can show: an empty span with `raw` (escaped) as its title.
    static func appendBad(_ raw: String, to out: inout ByteWriter) {
        out.append("<span class=\"rs-bad\" title=\"")
        HTMLEscaping.appendEscaped(raw, to: &out)
        out.append("\"></span>")
    }

    /// `value`'s place in `range` on the viewBox's width, clamped to 0...``width``. Any finite value and range
    /// (a range from -1.7e308 to 1.7e308 too): the differences are taken of halves, which cannot overflow.
    static func position(_ value: Double, in range: ClosedRange<Double>) -> Int {
        scaled(value / 2 - range.lowerBound / 2, of: range.upperBound / 2 - range.lowerBound / 2, on: width)
    }

    /// `part / whole` of `length`, rounded and clamped to 0...`length`; 0 when the ratio is no number (a `whole`
    /// that is not positive and finite, a `part` that is not finite). The only way from a chart's Doubles to an
    /// `Int`: it never traps.
    static func scaled(_ part: Double, of whole: Double, on length: Int) -> Int {
        guard whole > 0, whole.isFinite, !part.isNaN else { return 0 }
        let x = (part / whole * Double(length)).rounded()
        guard !x.isNaN else { return 0 }
        return Int(min(max(x, 0), Double(length)))
    }

    /// The number a bar or progress cell holds: a number, or text that reads as a finite one; nil otherwise.
    static func number(_ cell: Cell) -> Double? {
        let number: Double?
        switch cell {
        case .integer(let value): number = Double(value)
        case .decimal(let value): number = value
        case .bigInteger(let digits): number = Double(digits)
        case .text(let text): number = Double(text)
        case .empty, .link, .series: number = nil
        }
        return number.flatMap { $0.isFinite ? $0 : nil }
    }

    /// A batch's own range for a bar column without one: its smallest and largest value and zero (nil: none but
    /// zeros). Old rows are never redrawn: each batch's bars are to scale among themselves.
    static func observedRange<C: Collection<Row>>(_ rows: C, column: Int) -> ClosedRange<Double>? {
        var low = 0.0, high = 0.0
        for row in rows where column < row.cells.count {
            guard let value = number(row.cells[column]) else { continue }
            low = min(low, value)
            high = max(high, value)
        }
        return Column.validRange(low...high)
    }
}
