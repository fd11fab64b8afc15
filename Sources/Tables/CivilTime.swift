/// A UTC calendar time, converted to and from Unix seconds with Howard Hinnant's civil-date
/// algorithms (proleptic Gregorian), so no DateFormatter or Calendar is needed per cell.
///
/// Thread-safe: an immutable value type.
struct CivilTime: Equatable {
    var year: Int, month: Int, day: Int
    var hour: Int = 0, minute: Int = 0, second: Int = 0

    /// Unix seconds from 0000-01-01T00:00:00Z through 9999-12-31T23:59:59Z: the years we can print.
    static let representable: ClosedRange<Int64> = -62_167_219_200...253_402_300_799

    /// Days since 1970-01-01 of a valid civil date.
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The UTC time of a Unix timestamp; nil outside `representable`.
    init?(unixSeconds: Int64) {
        guard Self.representable.contains(unixSeconds) else { return nil }
        let seconds = Int(unixSeconds)
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 { rest += 86_400; days -= 1 }
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        hour = rest / 3600
        minute = rest / 60 % 60
        second = rest % 60
    }

    init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second) = (hour, minute, second)
    }

    var unixSeconds: Int64 {
        Int64(Self.days(year: year, month: month, day: day)) * 86_400
            + Int64(hour * 3600 + minute * 60 + second)
    }
}
