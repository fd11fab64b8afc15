/// Parses `YYYY-MM-DD` or `YYYY-MM-DD[T|t| ]HH:MM[:SS[.fraction]][Z|z|±HH[:MM]|±HHMM]` from bytes.
/// A date-time without an offset is taken as UTC. Fractions are dropped; a leap second (:60) shows
/// as :59. Surrounding whitespace is not accepted.
/// - Important: borrows its bytes; use within the scope that provides them.
struct ISO8601Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    private var i = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func parse() -> DateFormatting.Parsed? {
        guard let year = number(4), literal("-"), let month = number(2), literal("-"), let day = number(2),
              (1...12).contains(month), (1...CivilTime.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        if i == bytes.count { return .date(year: year, month: month, day: day) }

        guard literal("T") || literal("t") || literal(" "),
              let hour = number(2), literal(":"), let minute = number(2), hour < 24, minute < 60
        else { return nil }
        var second = 0
        if literal(":") {
            guard let s = number(2), s <= 60 else { return nil }
            second = min(s, 59)
            if literal(".") || literal(",") {
                let start = i
                while i < bytes.count, isDigit(bytes[i]) { i += 1 }
                guard i > start else { return nil }
            }
        }
        guard let offset = parseOffset(), i == bytes.count else { return nil }
        let local = CivilTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        // A UTC time is already the instant (0000-9999 are all representable): no round trip through seconds.
        if offset == 0 { return .instant(local) }
        return CivilTime(unixSeconds: local.unixSeconds - Int64(offset)).map(DateFormatting.Parsed.instant)
    }

    /// The UTC offset in seconds (east positive); 0 when absent or `Z`; nil when malformed.
    private mutating func parseOffset() -> Int? {
        if i == bytes.count || literal("Z") || literal("z") { return 0 }
        let sign: Int
        if literal("+") { sign = 1 } else if literal("-") { sign = -1 } else { return nil }
        guard let hours = number(2), hours < 24 else { return nil }
        var minutes = 0
        if i < bytes.count {
            _ = literal(":")
            guard let m = number(2), m < 60 else { return nil }
            minutes = m
        }
        return sign * (hours * 3600 + minutes * 60)
    }

    /// The next `width` (at most 4) digits as a number. Inlined, without overflow checks (4 digits cannot
    /// overflow): six calls a date-time, in every date cell.
    @inline(__always)
    private mutating func number(_ width: Int) -> Int? {
        guard i &+ width <= bytes.count else { return nil }
        var value = 0
        for k in i..<(i &+ width) {
            let digit = bytes[k] &- 0x30   // a byte below `0` wraps to 0xD0 or more
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int(digit)
        }
        i &+= width
        return value
    }

    private mutating func literal(_ c: Unicode.Scalar) -> Bool {
        guard i < bytes.count, bytes[i] == UInt8(c.value) else { return false }
        i += 1
        return true
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
}
