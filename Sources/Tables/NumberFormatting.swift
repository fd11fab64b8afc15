/// Thousands grouping for the `number` format, written straight into bytes.
///
/// Thread-safe: stateless.
enum NumberFormatting {
    /// Appends `value` with "," every three digits: -1,234,567. Handles `Int64.min`.
    static func appendGrouped(_ value: Int64, to buffer: inout ByteWriter) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        appendGrouped(magnitude: value.magnitude, to: &buffer)
    }

    /// Appends `value` grouped with exactly two decimals (half away from zero): -1,234.50.
    /// Returns false (appending nothing) for values too large to show exactly in this form
    /// (|value| >= 1e15) or not finite; the caller then shows the plain text.
    static func appendGrouped(_ value: Double, to buffer: inout ByteWriter) -> Bool {
        guard value.isFinite, value.magnitude < 1e15 else { return false }
        // Truncation after +0.5 rounds half up on the magnitude; no libm needed.
        let cents = UInt64(value.magnitude * 100 + 0.5)
        if value < 0 && cents > 0 { buffer.append(UInt8(ascii: "-")) }
        appendGrouped(magnitude: cents / 100, to: &buffer)
        buffer.append(UInt8(ascii: "."))
        buffer.appendDigits(UInt(cents % 100), minimumWidth: 2)
        return true
    }

    /// Appends an integer literal too large for `Int64` (`-?[0-9]+`) grouped digit by digit, so it
    /// shows exactly as the upstream wrote it: 12,345,678,901,234,567,890. Anything else is escaped as is.
    static func appendGrouped(literal: String, to buffer: inout ByteWriter) {
        var digits = Substring(literal)
        let negative = digits.first == "-"
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            HTMLEscaping.appendEscaped(literal, to: &buffer)
            return
        }
        if negative { buffer.append(UInt8(ascii: "-")) }
        let count = digits.utf8.count
        for (i, byte) in digits.utf8.enumerated() {
            buffer.append(byte)
            let left = count - 1 - i
            if left > 0 && left % 3 == 0 { buffer.append(UInt8(ascii: ",")) }
        }
    }

    private static func appendGrouped(magnitude: UInt64, to buffer: inout ByteWriter) {
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        // Written from the right: a comma before every third digit from the end.
        let width = digits + (digits - 1) / 3
        buffer.reserve(width)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 27) { scratch in
            var position = width
            var v = magnitude
            for written in 0..<digits {
                if written > 0 && written % 3 == 0 {
                    position -= 1
                    scratch[position] = UInt8(ascii: ",")
                }
                position -= 1
                scratch[position] = UInt8(truncatingIfNeeded: v % 10) + 0x30
                v /= 10
            }
            buffer.append(UnsafeBufferPointer(rebasing: scratch[0..<width]))
        }
    }
}
