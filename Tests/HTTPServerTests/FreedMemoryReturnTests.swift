import Testing
@testable import HTTPServer

/// When the server gives free heap memory back (after a wave of disconnects, or once a wave of growth has settled),
/// decided on a given clock.
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

    @Test("a storm of arrivals: once resident memory grew by the minimum and stopped growing, one return")
    func returnsOnceGrowthSettles() {
        let mb = 1 << 20
        let policy = FreedMemoryReturn(minimumDrop: 100, minimumInterval: .seconds(2), minimumGrowth: 32 * mb,
                                       settle: .seconds(1))
        #expect(!policy.shouldReturn(openConnections: 0, residentBytes: 10 * mb, now: start), "the base")
        // Arrivals: connections and memory rise for 5 s, sampled every half second.
        for step in 1...10 {
            let now = start + .milliseconds(500 * step)
            #expect(!policy.shouldReturn(openConnections: 1_900 * step, residentBytes: (10 + 15 * step) * mb, now: now),
                    "still growing at \(step)")
        }
        // Settled: grown by 150 MB, not growing (a page here and there is within the slack).
        let top = 160 * mb
        #expect(!policy.shouldReturn(openConnections: 19_000, residentBytes: top + 4_096, now: start + .milliseconds(5_500)))
        #expect(policy.shouldReturn(openConnections: 19_000, residentBytes: top + 8_192, now: start + .seconds(6)))
        // After the return the base restarts from the next reading (the trimmed size): nothing more while steady.
        for step in 1...40 {
            #expect(!policy.shouldReturn(openConnections: 19_000 - step % 7, residentBytes: 60 * mb + step % 3 * 4_096,
                                         now: start + .seconds(6) + .milliseconds(500 * step)))
        }
        #expect(policy.returns == 1)
    }

    @Test("growth below the minimum, or still going on, returns nothing")
    func smallOrOngoingGrowthDoesNotReturn() {
        let mb = 1 << 20
        let policy = FreedMemoryReturn(minimumDrop: 100, minimumInterval: .zero, minimumGrowth: 32 * mb, settle: .seconds(1))
        _ = policy.shouldReturn(openConnections: 0, residentBytes: 10 * mb, now: start)
        #expect(!policy.shouldReturn(openConnections: 500, residentBytes: 40 * mb, now: start + .seconds(10)), "30 MB: below")
        for step in 1...20 {   // growing 2 MB every half second: never settled
            #expect(!policy.shouldReturn(openConnections: 500 + step, residentBytes: (40 + 2 * step) * mb,
                                         now: start + .seconds(10) + .milliseconds(500 * step)))
        }
        #expect(policy.returns == 0)
    }

    @Test func readsItsOwnResidentBytes() throws {
        let resident = try #require(FreedMemoryReturn.residentBytes())
        #expect(resident > 1 << 20)
    }
}
