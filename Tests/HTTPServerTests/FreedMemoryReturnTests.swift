import Testing
@testable import HTTPServer

/// When the server gives free heap memory back (after a wave of disconnects), decided on a given clock.
struct FreedMemoryReturnTests {
    let start = ContinuousClock.now

    @Test func returnsOnceOpenConnectionsFellByTheDropAndByHalf() {
        let policy = FreedMemoryReturn(minimumDrop: 100, minimumInterval: .seconds(10))
        for open in stride(from: 0, through: 1_000, by: 50) {
            #expect(!policy.shouldReturn(openConnections: open, now: start), "rising from 0 to 1,000")
        }
        #expect(!policy.shouldReturn(openConnections: 600, now: start), "fell by 400: not to half yet")
        #expect(policy.shouldReturn(openConnections: 500, now: start))
        #expect(!policy.shouldReturn(openConnections: 0, now: start + .seconds(1)), "within the interval")
        #expect(policy.shouldReturn(openConnections: 0, now: start + .seconds(11)), "the peak was kept")
        #expect(policy.returns == 2)
    }

    @Test func steadyChurnAndSmallDropsNeverReturn() {
        let policy = FreedMemoryReturn(minimumDrop: 100, minimumInterval: .zero)
        for step in 0..<1_000 {
            // 2,000 viewers replaced one by one: the count never falls far.
            #expect(!policy.shouldReturn(openConnections: 2_000 - step % 7, now: start + .seconds(step)))
        }
        let small = FreedMemoryReturn(minimumDrop: 100, minimumInterval: .zero)
        _ = small.shouldReturn(openConnections: 150, now: start)
        #expect(!small.shouldReturn(openConnections: 60, now: start), "below half, but only 90 closed")
        #expect(small.returns == 0)
    }
}
