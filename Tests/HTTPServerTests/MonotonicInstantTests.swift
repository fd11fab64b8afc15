@testable import HTTPServer
import Testing

/// A connection's deadlines (``MonotonicInstant``): nanosecond arithmetic with durations, the clock moving forward,
/// and a deadline too far to count that is never due rather than one that wrapped into the past.
@Suite struct MonotonicInstantTests {
    @Test func addsAndSubtractsDurations() {
        let start = MonotonicInstant(nanoseconds: 1_000)
        let later = start + .milliseconds(2)
        #expect(later.nanoseconds == 2_001_000)
        #expect(later - start == .milliseconds(2))
        #expect(start - later == .milliseconds(-2))
        #expect(start < later && !(later < start) && start <= start)
        #expect(start + .nanoseconds(-1_000) == MonotonicInstant(nanoseconds: 0))
    }

    @Test func aDeadlineTooFarToCountIsNeverDue() {
        let now = MonotonicInstant.now
        let never = now + .seconds(Int64.max)
        #expect(never.nanoseconds == .max)
        #expect(never > now + .seconds(1_000_000_000))
        #expect(MonotonicInstant(nanoseconds: .min + 1) + .seconds(-1) == MonotonicInstant(nanoseconds: .min))
    }

    @Test func theClockDoesNotGoBack() {
        var last = MonotonicInstant.now
        for _ in 0..<1_000 {
            let next = MonotonicInstant.now
            #expect(next >= last)
            last = next
        }
    }
}
