import Dispatch
import Locking
import Testing
import TestSupport
@testable import Batches

/// The one timer source all loads' timeouts share (``TimeoutWheel``).
@Suite struct TimeoutWheelTests {
    /// What ran, in order, and when.
    final class Fired: Sendable {
        let names = Lock<[(name: String, at: UInt64)]>([])
        func record(_ name: String) { names.withLock { $0.append((name, DispatchTime.now().uptimeNanoseconds)) } }
        var order: [String] { names.withLock { $0.map(\.name) } }
        func at(_ name: String) -> UInt64? { names.withLock { $0.first { $0.name == name }?.at } }
    }

    @Test func runsEachActionOnceNotBeforeItsDelayInDeadlineOrder() async throws {
        let wheel = TimeoutWheel(tickNanoseconds: 1_000_000)
        let fired = Fired()
        let start = DispatchTime.now().uptimeNanoseconds
        // The later deadline first, so the earlier one must re-arm the source.
        _ = wheel.schedule(afterNanoseconds: 300_000_000) { fired.record("late") }
        _ = wheel.schedule(afterNanoseconds: 100_000_000) { fired.record("early") }
        try #require(await eventually { fired.order.count == 2 })
        #expect(fired.order == ["early", "late"])
        #expect(try #require(fired.at("early")) - start >= 100_000_000)
        #expect(try #require(fired.at("late")) - start >= 300_000_000)
        #expect(wheel.pendingCount == 0)
    }

    @Test func cancelledActionsNeverRunAndLeaveNothingPending() async throws {
        let wheel = TimeoutWheel(tickNanoseconds: 1_000_000)
        let fired = Fired()
        // Held, so nothing fires between the scheduling and the cancels however slow the run (a starved sanitized
        // run once took more than 2 s for the 1,000, and some fired before their cancel).
        wheel.holdFiring()
        defer { wheel.releaseFiring() }
        let due = 20_000_000
        let cancels = (0..<1_000).map { index in
            wheel.schedule(afterNanoseconds: due) { fired.record("cancelled \(index)") }
        }
        #expect(wheel.pendingCount == 1_000)
        for cancel in cancels { cancel() }
        #expect(wheel.pendingCount == 0, "a cancelled timeout keeps no entry")
        // One scheduled after them, in the same or a later tick; the release comes when all their ticks are due.
        _ = wheel.schedule(afterNanoseconds: due) { fired.record("kept") }
        let allDue = DispatchTime.now().uptimeNanoseconds + UInt64(due) + 2_000_000
        try #require(await eventually { DispatchTime.now().uptimeNanoseconds > allDue })
        wheel.releaseFiring()
        try #require(await eventually { fired.order.count >= 1 })
        #expect(fired.order == ["kept"])
        cancels[0]()  // after the fact: nothing
        #expect(wheel.pendingCount == 0)
    }

    @Test func anActionMayScheduleAgainFromTheWheelsQueue() async throws {
        let wheel = TimeoutWheel(tickNanoseconds: 1_000_000)
        let fired = Fired()
        _ = wheel.schedule(afterNanoseconds: 0) {
            fired.record("first")
            _ = wheel.schedule(afterNanoseconds: 1_000_000) { fired.record("second") }
        }
        try #require(await eventually { fired.order.count == 2 })
        #expect(fired.order == ["first", "second"])
    }
}
