import JSON

/// The `date` format: ISO 8601 dates and date-times (parsed by hand from bytes) or Unix seconds,
/// rendered as `<time datetime="ISO">YYYY-MM-DD HH:MM</time>` in UTC. Date-only input stays a date.
///
/// Thread-safe: stateless.
enum DateFormatting {
    /// A parsed date: either a calendar date alone or an instant.
    enum Parsed: Equatable {
        case date(year: Int, month: Int, day: Int)
        case instant(CivilTime)
    }

    /// Appends the `<time>` element for `value`; returns false (appending nothing) if it is not a date.
    static func appendTime(_ value: Cell, to buffer: inout ByteWriter) -> Bool {
        guard let parsed = parse(value) else { return false }
        switch parsed {
        case .date(let year, let month, let day):
            buffer.append("<time datetime=\"")
            appendDate(year, month, day, to: &buffer)
            buffer.append("\">")
            appendDate(year, month, day, to: &buffer)
        case .instant(let t):
            buffer.append("<time datetime=\"")
            appendDate(t.year, t.month, t.day, to: &buffer)
            buffer.append(UInt8(ascii: "T"))
            appendClock(t, seconds: true, to: &buffer)
            buffer.append("Z\">")
            appendDate(t.year, t.month, t.day, to: &buffer)
            buffer.append(UInt8(ascii: " "))
            appendClock(t, seconds: false, to: &buffer)
        }
        buffer.append("</time>")
        return true
    }

    static func parse(_ value: Cell) -> Parsed? {
        switch value {
        case .integer(let seconds):
            return CivilTime(unixSeconds: seconds).map(Parsed.instant)
        case .decimal(let seconds):
            guard seconds.isFinite, seconds.magnitude < 1e12 else { return nil }
            var whole = Int64(seconds)  // toward zero; step down for negative fractions
            if Double(whole) > seconds { whole -= 1 }
            return CivilTime(unixSeconds: whole).map(Parsed.instant)
        case .text(var text), .link(var text, _):
            return text.withUTF8 { bytes in
                var parser = ISO8601Parser(bytes: bytes)
                return parser.parse()
            }
        default:
            return nil
        }
    }

    private static func appendDate(_ year: Int, _ month: Int, _ day: Int, to buffer: inout ByteWriter) {
        buffer.appendDigits(UInt(year), minimumWidth: 4)
        buffer.append(UInt8(ascii: "-"))
        buffer.appendDigits(UInt(month), minimumWidth: 2)
        buffer.append(UInt8(ascii: "-"))
        buffer.appendDigits(UInt(day), minimumWidth: 2)
    }

    private static func appendClock(_ t: CivilTime, seconds: Bool, to buffer: inout ByteWriter) {
        buffer.appendDigits(UInt(t.hour), minimumWidth: 2)
        buffer.append(UInt8(ascii: ":"))
        buffer.appendDigits(UInt(t.minute), minimumWidth: 2)
        if seconds {
            buffer.append(UInt8(ascii: ":"))
            buffer.appendDigits(UInt(t.second), minimumWidth: 2)
        }
    }
}
