import Testing
import TestSupport
@testable import Batches

@Suite struct LoadFailureTests {
    @Test func mapsErrors() {
        let own = LoadFailure(message: "HTTP 404", isRetryable: false)
        #expect(LoadFailure(own) == own)
        #expect(LoadFailure(UpstreamDown()) == LoadFailure(message: "upstream down", isRetryable: true))
        #expect(LoadFailure(CancellationError()).isRetryable)
    }

    @Test(arguments: [
        (Duration.seconds(2), 2_000_000_000), (.milliseconds(1500), 1_500_000_000), (.seconds(-1), 0),
        (.seconds(Int64.max), Int.max),
    ])
    func systemClockConvertsDurations(delay: Duration, nanoseconds: Int) {
        #expect(SystemBatchesClock.nanoseconds(delay) == nanoseconds)
    }

    @Test func systemClockRunsAndCancels() async throws {
        let clock = SystemBatchesClock()
        let fired = EventRecorder<Int, Int>()
        _ = clock.schedule(after: .milliseconds(1)) { fired.onEvent(.reset) }
        let cancel = clock.schedule(after: .milliseconds(1)) { fired.onEvent(.completed(total: 0)) }
        cancel()
        try #require(await eventually { fired.events.count >= 1 }, "the timer fired")
        #expect(fired.events.first == .reset)
    }
}
