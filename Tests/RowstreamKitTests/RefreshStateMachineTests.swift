import Testing
@testable import RowstreamKit

/// The single flight and rate limit of live refreshes, as a pure value driven with a manual clock (instants the
/// test picks; the machine never reads a clock).
@Suite struct RefreshStateMachineTests {
    let start = ContinuousClock.now
    func at(seconds: Double) -> ContinuousClock.Instant { start + .seconds(seconds) }
    func waiter(_ n: UInt64) -> RefreshStateMachine.WaiterID { .init(n) }

    func startedRun(_ action: RefreshStateMachine.Action) throws -> RefreshStateMachine.RunID {
        guard case .start(let run) = action else { throw Failure("expected .start, got \(action)") }
        return run
    }

    func awaitedRun(_ action: RefreshStateMachine.Action) throws -> RefreshStateMachine.RunID {
        guard case .wait(let run) = action else { throw Failure("expected .wait, got \(action)") }
        return run
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test("a hundred requests at once cost two fetches: the running one and one follow-up that all later ones share")
    func hundredRequestsTwoFetches() throws {
        var machine = RefreshStateMachine(limit: RefreshLimit(burst: 1_000, every: .seconds(1)))
        let first = try startedRun(machine.request(waiter(1), at: at(seconds: 0)))
        let followUp = try awaitedRun(machine.request(waiter(2), at: at(seconds: 0)))
        #expect(followUp != first)
        for n in 3...100 { #expect(machine.request(waiter(UInt64(n)), at: at(seconds: 0)) == .wait(followUp)) }
        // The first fetch began before requests 2...100 arrived: only its own caller gets its result.
        #expect(machine.finished(first) == .complete(waiters: [waiter(1)], next: followUp))
        #expect(machine.finished(followUp) == .complete(waiters: (2...100).map { waiter(UInt64($0)) }, next: nil))
        #expect(machine.isIdle)
        #expect(machine.finished(followUp) == .none, "a second report of the same run changes nothing")
    }

    @Test("creating work takes a token, joining it is free; refused with the wait until the next token; refilled by time")
    func rateLimit() throws {
        var machine = RefreshStateMachine(limit: RefreshLimit(burst: 2, every: .seconds(10)))
        let first = try startedRun(machine.request(waiter(1), at: at(seconds: 0)))
        let followUp = try awaitedRun(machine.request(waiter(2), at: at(seconds: 0)))  // second token
        #expect(machine.request(waiter(3), at: at(seconds: 1)) == .wait(followUp), "joining costs nothing")
        _ = machine.finished(first)
        _ = machine.finished(followUp)
        #expect(machine.request(waiter(4), at: at(seconds: 4)) == .refuse(retryAfter: .seconds(6)))
        #expect(machine.request(waiter(5), at: at(seconds: 9.5)) == .refuse(retryAfter: .milliseconds(500)))
        let third = try startedRun(machine.request(waiter(6), at: at(seconds: 10)))
        #expect(machine.request(waiter(7), at: at(seconds: 10)) == .refuse(retryAfter: .seconds(10)))
        #expect(machine.finished(third) == .complete(waiters: [waiter(6)], next: nil))
        // Idle for long: the bucket holds `burst` tokens again, not more.
        let again = try startedRun(machine.request(waiter(8), at: at(seconds: 1_000)))
        let againFollowUp = try awaitedRun(machine.request(waiter(9), at: at(seconds: 1_000)))
        _ = machine.finished(again)
        _ = machine.finished(againFollowUp)
        #expect(machine.request(waiter(10), at: at(seconds: 1_000)) == .refuse(retryAfter: .seconds(10)))
    }

    @Test("the ticker shares the single flight and is never refused")
    func tickerSharesAndIsFree() throws {
        var machine = RefreshStateMachine(limit: RefreshLimit(burst: 1, every: .seconds(3_600)))
        let first = try startedRun(machine.request(waiter(1), at: at(seconds: 0)))
        #expect(machine.request(waiter(2), at: at(seconds: 0)) == .refuse(retryAfter: .seconds(3_600)))
        let followUp = try awaitedRun(machine.request(waiter(3), at: at(seconds: 0), isTicker: true))
        #expect(machine.request(waiter(4), at: at(seconds: 0)) == .wait(followUp), "a POST joins the ticker's follow-up")
        #expect(machine.finished(first) == .complete(waiters: [waiter(1)], next: followUp))
        #expect(machine.finished(followUp) == .complete(waiters: [waiter(3), waiter(4)], next: nil))
        _ = try startedRun(machine.request(waiter(5), at: at(seconds: 1), isTicker: true))
    }

    @Test("a follow-up everyone left is dropped; a running fetch everyone left is cancelled but stays running until it ends")
    func leaving() throws {
        var machine = RefreshStateMachine(limit: RefreshLimit(burst: 100, every: .seconds(1)))
        let first = try startedRun(machine.request(waiter(1), at: at(seconds: 0)))
        let followUp = try awaitedRun(machine.request(waiter(2), at: at(seconds: 0)))
        _ = machine.request(waiter(3), at: at(seconds: 0))
        #expect(machine.leave(waiter(2)) == .none)
        #expect(machine.leave(waiter(3)) == .none)
        #expect(machine.leave(waiter(3)) == .none, "leaving twice changes nothing")
        #expect(machine.leave(waiter(1)) == .cancel(first))
        // The cancelled fetch is still the running one: a new request queues behind it (no two fetches at once).
        let next = try awaitedRun(machine.request(waiter(4), at: at(seconds: 1)))
        #expect(next != followUp)
        #expect(machine.finished(first) == .complete(waiters: [], next: next))
        #expect(machine.leave(waiter(4)) == .cancel(next))
        #expect(machine.finished(next) == .complete(waiters: [], next: nil))
        #expect(machine.isIdle)
    }

    @Test("one of several waiters leaving cancels nothing; stop hands back every waiter and the run to cancel")
    func partialLeaveAndStop() throws {
        var machine = RefreshStateMachine(limit: .standard)
        let first = try startedRun(machine.request(waiter(1), at: at(seconds: 0)))
        _ = machine.request(waiter(2), at: at(seconds: 0))
        _ = machine.request(waiter(3), at: at(seconds: 0))
        #expect(machine.leave(waiter(2)) == .none)
        let stopped = machine.stop()
        #expect(stopped.waiters == [waiter(1), waiter(3)] && stopped.cancel == first)
        #expect(machine.isIdle)
        #expect(machine.finished(first) == .none)
    }

    @Test("a dropped follow-up gives its token back; a cancelled running fetch does not")
    func refundOnlyWhatNeverRan() throws {
        var machine = RefreshStateMachine(limit: RefreshLimit(burst: 2, every: .seconds(60)))
        let first = try startedRun(machine.request(waiter(1), at: at(seconds: 0)))
        _ = try awaitedRun(machine.request(waiter(2), at: at(seconds: 0)))
        #expect(machine.leave(waiter(2)) == .none)                 // the follow-up is dropped: refunded
        #expect(machine.leave(waiter(1)) == .cancel(first))         // the running fetch is cancelled: spent
        let next = try awaitedRun(machine.request(waiter(3), at: at(seconds: 0)))
        #expect(machine.request(waiter(4), at: at(seconds: 0)) == .wait(next))
        _ = machine.finished(first)
        _ = machine.finished(next)
        #expect(machine.request(waiter(5), at: at(seconds: 0)) == .refuse(retryAfter: .seconds(60)))
    }

    @Test("the limit's forms: per minute, and at least one token and one millisecond")
    func limitForms() {
        #expect(RefreshLimit(perMinute: 30, burst: 5) == RefreshLimit.standard)
        #expect(RefreshLimit(burst: 0, every: .zero) == RefreshLimit(burst: 1, every: .milliseconds(1)))
    }
}
