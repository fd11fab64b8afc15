/// Thousands grouping (and a column's fixed decimals) for the `number` format, written straight into bytes.
///
/// Thread-safe: stateless.
enum NumberFormatting {
    /// Appends `value` with "," every three digits: -1,234,567. Handles `Int64.min`.
    static func appendGrouped(_ value: Int64, to buffer: inout ByteWriter) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        appendGrouped(magnitude: value.magnitude, to: &buffer)
    }

    /// Appends `value` grouped with exactly `decimals` decimals (0...6, half away from zero): -1,234.50 for 2.
    /// Returns false (appending nothing) for values too large to show exactly in this form
    /// (|value| * 10^decimals >= 1e17) or not finite; the caller then shows the plain text.
    static func appendGrouped(_ value: Double, decimals: Int, to buffer: inout ByteWriter) -> Bool {
        let decimals = clamped(decimals)
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale *= 10 }
        guard value.isFinite, value.magnitude * Double(scale) < 1e17 else { return false }
        // Truncation after +0.5 rounds half up on the magnitude; no libm needed.
        let scaled = UInt64(value.magnitude * Double(scale) + 0.5)
        if value < 0 && scaled > 0 { buffer.append(UInt8(ascii: "-")) }
        appendGrouped(magnitude: scaled / scale, to: &buffer)
        if decimals > 0 {
            buffer.append(UInt8(ascii: "."))
            buffer.appendDigits(UInt(scaled % scale), minimumWidth: decimals)
        }
        return true
    }

    /// Appends an integer grouped, followed by `decimals` zeros: 1,234.00 for 2.
    static func appendGrouped(_ value: Int64, decimals: Int, to buffer: inout ByteWriter) {
        appendGrouped(value, to: &buffer)
        let decimals = clamped(decimals)
        guard decimals > 0 else { return }
        buffer.append(UInt8(ascii: "."))
        for _ in 0..<decimals { buffer.append(UInt8(ascii: "0")) }
    }

    /// `decimals` within 0...``Column/maximumDecimals`` (a code table may set any number).
    private static func clamped(_ decimals: Int) -> Int { min(max(decimals, 0), Column.maximumDecimals) }

    /// Appends a number literal (`-?[0-9]+(\.[0-9]+)?`: an integer too large for `Int64`, or a decimal's shortest
    /// spelling, `3.1`) with its whole part grouped digit by digit and its fraction as it is, so it shows as the
    /// upstream wrote it: 12,345,678,901,234,567,890 or 1,234.5. Anything else (`1e+21`) is escaped as is.
    static func appendGrouped(literal: String, to buffer: inout ByteWriter) {
        literal.withUTF8Bytes { bytes in
            let negative = bytes.first == UInt8(ascii: "-")
            let digits = UnsafeBufferPointer(rebasing: bytes[(negative ? 1 : 0)...])
            let dot = digits.firstIndex(of: UInt8(ascii: ".")) ?? digits.endIndex
            let whole = UnsafeBufferPointer(rebasing: digits[..<dot])
            let fraction = UnsafeBufferPointer(rebasing: digits[(dot == digits.endIndex ? dot : dot + 1)...])
            func isDigits(_ part: UnsafeBufferPointer<UInt8>) -> Bool {
                !part.isEmpty && part.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            }
            guard isDigits(whole), fraction.isEmpty || isDigits(fraction), bytes.last != UInt8(ascii: ".") else {
                HTMLEscaping.appendEscaped(bytes: bytes, to: &buffer)
                return
            }
            // The sign, the whole part with a comma before each group of three, then `.` and the fraction.
            buffer.write(upTo: bytes.count + whole.count / 3) { out in
                var j = 0
                if negative {
                    out[0] = UInt8(ascii: "-")
                    j = 1
                }
                for (i, byte) in whole.enumerated() {
                    out[j] = byte
                    j &+= 1
                    let left = whole.count &- 1 &- i
                    if left > 0 && left % 3 == 0 {
                        out[j] = UInt8(ascii: ",")
                        j &+= 1
                    }
                }
                if !fraction.isEmpty {
                    out[j] = UInt8(ascii: ".")
                    (out + j + 1).initialize(from: fraction.baseAddress!, count: fraction.count)
                    j &+= 1 &+ fraction.count
                }
                return j
            }
        }
    }

    /// Appends `magnitude` with a comma before each group of three digits, written from the right.
    private static func appendGrouped(magnitude: UInt64, to buffer: inout ByteWriter) {
        buffer.write(upTo: 27) { out in   // UInt64.max: 20 digits and 6 commas
            var digits = 1
            var rest = magnitude / 10
            while rest > 0 {
                digits &+= 1
                rest /= 10
            }
            let width = digits &+ (digits &- 1) / 3
            var position = width
            var v = magnitude
            var inGroup = 0
            while true {
                position &-= 1
                out[position] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
                v /= 10
                if v == 0 { break }
                inGroup &+= 1
                if inGroup == 3 {
                    position &-= 1
                    out[position] = UInt8(ascii: ",")
                    inGroup = 0
                }
            }
            return width
        }
    }
}
