import Testing
@testable import HTTPServer

/// `ArrivalRate`: arrivals counted in fixed windows; a storm while the window being counted or the one just before it
/// had `threshold` or more. Every instant is given, so nothing here depends on how fast the test runs.
@Suite struct ArrivalRateTests {
    let start = ContinuousClock.now
    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    @Test func aTrickleIsNoStorm() {
        var rate = ArrivalRate(window: .milliseconds(10), threshold: 5)
        #expect(!rate.isStorm(at: at(0)))  // before any arrival
        for millisecond in stride(from: 0, to: 100, by: 3) {  // 3 or 4 a window
            rate.record(1, at: at(millisecond))
            #expect(!rate.isStorm(at: at(millisecond)))
        }
    }

    @Test func aStormLastsUntilAWholeWindowPassedWithout() {
        var rate = ArrivalRate(window: .milliseconds(10), threshold: 4)
        rate.record(1, at: at(0))
        rate.record(2, at: at(4))
        #expect(!rate.isStorm(at: at(5)))
        rate.record(1, at: at(9))  // the 4th within the first window
        #expect(rate.isStorm(at: at(9)))
        #expect(rate.isStorm(at: at(10)))  // the next window: the one before it had 4
        #expect(rate.isStorm(at: at(19)))
        #expect(!rate.isStorm(at: at(20)))  // the window before this one had none
        rate.record(3, at: at(21))
        #expect(!rate.isStorm(at: at(21)))
    }

    @Test func arrivalsSplitAcrossWindowsAreCountedInTheirOwn() {
        var rate = ArrivalRate(window: .milliseconds(10), threshold: 4)
        rate.record(3, at: at(0))
        rate.record(3, at: at(11))  // 6 within 11 ms, but 3 in each window
        #expect(!rate.isStorm(at: at(12)))
        rate.record(1, at: at(19))
        #expect(rate.isStorm(at: at(19)))
    }

    @Test func aLongGapForgetsTheWindowBefore() {
        var rate = ArrivalRate(window: .milliseconds(10), threshold: 4)
        rate.record(10, at: at(0))
        #expect(rate.isStorm(at: at(1)))
        rate.record(1, at: at(35))  // windows 10-20 and 20-30 passed with none
        #expect(!rate.isStorm(at: at(35)))
        rate.record(3, at: at(39))  // 4 in the window 30-40: windows stay aligned to the first arrival
        #expect(rate.isStorm(at: at(39)))
        #expect(rate.isStorm(at: at(49)))
        #expect(!rate.isStorm(at: at(50)))
    }
}
