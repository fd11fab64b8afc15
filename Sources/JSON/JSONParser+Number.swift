extension JSONParser {
    /// Parses `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` at the current position.
    /// Plain integers are accumulated directly (negatively, so `Int64.min` fits); larger integers keep
    /// their literal (`.bigInteger`); the rest go through the standard library's locale-independent
    /// `Double` parser. When not `building`, the same checks, returning `.null`: the `Double` parser runs only for a
    /// number that could be out of its range (an exponent, or more than 308 integer digits).
    mutating func parseNumber(building: Bool = true) throws(JSONError) -> JSONValue {
        let start = position
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }

        guard let first = peek(), isDigit(first) else { throw error(.invalidNumber, "a digit") }
        var accumulator: Int64 = 0  // holds minus the magnitude
        var overflow = false
        if first == UInt8(ascii: "0") {
            position += 1
            if let next = peek(), isDigit(next) { throw error(.invalidNumber, "no leading zero") }
        } else {
            while let digit = peek(), isDigit(digit) {
                if !overflow {
                    let (times10, o1) = accumulator.multipliedReportingOverflow(by: 10)
                    let (sum, o2) = times10.subtractingReportingOverflow(Int64(digit &- 0x30))
                    if o1 || o2 { overflow = true } else { accumulator = sum }
                }
                position += 1
            }
        }

        let integerDigits = position - start - (negative ? 1 : 0)
        var integral = true
        var exponent = false
        if peek() == UInt8(ascii: ".") {
            integral = false
            position += 1
            guard let d = peek(), isDigit(d) else { throw error(.invalidNumber, "a digit after '.'") }
            while let d = peek(), isDigit(d) { position += 1 }
        }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            integral = false
            exponent = true
            position += 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { position += 1 }
            guard let d = peek(), isDigit(d) else { throw error(.invalidNumber, "a digit in the exponent") }
            while let d = peek(), isDigit(d) { position += 1 }
        }

        // Without an exponent, at most 308 integer digits stay below 1e308, within range whatever the fraction.
        if !building && (integral || !exponent && integerDigits <= 308) { return .null }
        if integral && !overflow {
            if negative { return .int(accumulator) }
            if accumulator != Int64.min { return .int(-accumulator) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if integral { return .bigInteger(text) }  // exact, never rounded through Double
        guard let double = Double(text), double.isFinite else {
            position = start
            throw error(.numberOutOfRange, "a number within the range of a Double")
        }
        return .double(double)
    }

    @inline(__always)
    func isDigit(_ byte: UInt8) -> Bool {
        byte &- 0x30 < 10
    }
}
