/// Thousands grouping for the `number` format, written straight into bytes.
///
/// Thread-safe: stateless.
enum NumberFormatting {
    /// Appends `value` with "," every three digits: -1,234,567. Handles `Int64.min`.
    static func appendGrouped(_ value: Int64, to buffer: inout [UInt8]) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        appendGrouped(magnitude: value.magnitude, to: &buffer)
    }

    /// Appends `value` grouped with exactly two decimals (half away from zero): -1,234.50.
    /// Returns false (appending nothing) for values too large to show exactly in this form
    /// (|value| >= 1e15) or not finite; the caller then shows the plain text.
    static func appendGrouped(_ value: Double, to buffer: inout [UInt8]) -> Bool {
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
    static func appendGrouped(literal: String, to buffer: inout [UInt8]) {
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

    private static func appendGrouped(magnitude: UInt64, to buffer: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            var v = magnitude
            repeat {
                digits[count] = UInt8(v % 10) + 0x30
                v /= 10
                count += 1
            } while v > 0
            for i in stride(from: count - 1, through: 0, by: -1) {
                buffer.append(digits[i])
                if i > 0 && i % 3 == 0 { buffer.append(UInt8(ascii: ",")) }
            }
        }
    }
}
