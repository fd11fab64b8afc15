import EventLoop
import Testing

/// `Duration.wholeNanoseconds`: finer than a nanosecond is dropped; past `Int64`'s range it is clamped.
@Suite struct WholeNanosecondsTests {
    @Test func wholeNanosecondsOfADuration() {
        #expect(Duration.milliseconds(1_500).wholeNanoseconds == 1_500_000_000)
        #expect(Duration.microseconds(500).wholeNanoseconds == 500_000)
        #expect((Duration.nanoseconds(3) + .seconds(1) / 1_000_000_000_000).wholeNanoseconds == 3)
        #expect(Duration.seconds(-2).wholeNanoseconds == -2_000_000_000)
        #expect(Duration.seconds(Int64.max).wholeNanoseconds == .max)
        #expect(Duration.seconds(Int64.min).wholeNanoseconds == .min)
    }
}
