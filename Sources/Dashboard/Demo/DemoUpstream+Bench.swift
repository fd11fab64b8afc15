import Foundation
import JSON

/// Bench mode of the demo upstream (`--bench-stamp on`, used by `Scripts/bench fanout`): each page's records have
/// their `name` replaced by `ts=<microseconds since the Unix epoch> seq=<page request number> ` and a fixed-width
/// filler, so that every refresh of the live demo table finds every head row changed and broadcasts one `update`
/// event (encoded once, the same bytes written to every viewer), and a load client can read the time the change was
/// made and tell broadcasts apart. Only the bench turns it on; the shape of a page is unchanged.
extension DemoUpstream {
    /// `page` with each record's `name` stamped with the current wall-clock time and `number`.
    static func stamped(_ page: [JSONValue], number: Int, now: Date = Date()) -> [JSONValue] {
        let micros = Int64((now.timeIntervalSince1970 * 1_000_000).rounded())
        let stamp = "ts=\(micros) seq=\(number) "
        return page.map { record in
            guard case .object(var fields) = record else { return record }
            fields["name"] = .string(stamp + filler)
            return .object(fields)
        }
    }

    /// Makes a stamped row about as long as a typical demo row (so ~2 KB of HTML is six rows).
    private static let filler = "bench row"
}
