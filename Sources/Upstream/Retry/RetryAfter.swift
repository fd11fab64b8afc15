import Foundation

/// Reads a `Retry-After` header (RFC 9110 section 10.2.3): delay-seconds or an HTTP date.
///
/// Pure function of its inputs: thread-safe.
enum RetryAfter {
    /// The wait the header asks for, measured from `now`; a date in the past is zero; nil if unreadable.
    static func parse(_ value: String, now: Date = Date()) -> Duration? {
        let text = value.trimmingHTTPWhitespace()
        if let seconds = Int(text) {
            return seconds >= 0 ? .seconds(seconds) : nil
        }
        for pattern in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = pattern
            if let date = formatter.date(from: text) {
                let seconds = max(0, date.timeIntervalSince(now))
                return .milliseconds(Int64((seconds * 1000).rounded(.up)))
            }
        }
        return nil
    }
}
