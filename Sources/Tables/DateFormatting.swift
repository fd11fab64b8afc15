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
        appendTime(parsed, to: &buffer)
        return true
    }

    /// Appends the `<time>` element of a parsed date, in one piece (at most 61 bytes): a date's fields are 0...9999
    /// and two-digit.
    static func appendTime(_ parsed: Parsed, to buffer: inout ByteWriter) {
        buffer.write(upTo: 64) { out in
            var j = put("<time datetime=\"", at: out)
            switch parsed {
            case .date(let year, let month, let day):
                j &+= putDate(year, month, day, at: out + j)
                j &+= put("\">", at: out + j)
                j &+= putDate(year, month, day, at: out + j)
            case .instant(let t):
                j &+= putDate(t.year, t.month, t.day, at: out + j)
                out[j] = UInt8(ascii: "T")
                j &+= 1
                j &+= putClock(t, seconds: true, at: out + j)
                j &+= put("Z\">", at: out + j)
                j &+= putDate(t.year, t.month, t.day, at: out + j)
                out[j] = UInt8(ascii: " ")
                j &+= 1
                j &+= putClock(t, seconds: false, at: out + j)
            }
            return j &+ put("</time>", at: out + j)
        }
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
        case .text(let text), .link(let text, _):
            return text.withUTF8Bytes(parse(bytes:))
        default:
            return nil
        }
    }

    /// The date an ISO 8601 text's UTF-8 holds, if it holds one.
    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Parsed? {
        var parser = ISO8601Parser(bytes: bytes)
        return parser.parse()
    }

    @inline(__always)
    private static func put(_ literal: StaticString, at out: UnsafeMutablePointer<UInt8>) -> Int {
        out.initialize(from: literal.utf8Start, count: literal.utf8CodeUnitCount)
        return literal.utf8CodeUnitCount
    }

    /// `YYYY-MM-DD` (a year of 0...9999); 10 bytes.
    @inline(__always)
    private static func putDate(_ year: Int, _ month: Int, _ day: Int, at out: UnsafeMutablePointer<UInt8>) -> Int {
        ByteWriter.putTwoDigits(year / 100, at: out)
        ByteWriter.putTwoDigits(year % 100, at: out + 2)
        out[4] = UInt8(ascii: "-")
        ByteWriter.putTwoDigits(month, at: out + 5)
        out[7] = UInt8(ascii: "-")
        ByteWriter.putTwoDigits(day, at: out + 8)
        return 10
    }

    /// `HH:MM` or `HH:MM:SS`.
    @inline(__always)
    private static func putClock(_ t: CivilTime, seconds: Bool, at out: UnsafeMutablePointer<UInt8>) -> Int {
        ByteWriter.putTwoDigits(t.hour, at: out)
        out[2] = UInt8(ascii: ":")
        ByteWriter.putTwoDigits(t.minute, at: out + 3)
        guard seconds else { return 5 }
        out[5] = UInt8(ascii: ":")
        ByteWriter.putTwoDigits(t.second, at: out + 6)
        return 8
    }
}
