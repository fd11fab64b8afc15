@testable import EventLoop
import Testing

/// `RepeatingTimers`: the loop's `epoll_wait` timeout and which timers are due, at instants the test chooses.
@Suite("Repeating timers")
struct RepeatingTimersTests {
    @Test("no timer: wait for an event; a timer due later: its milliseconds plus one; one due now: zero")
    func timeouts() {
        let start = ContinuousClock.now
        var timers = RepeatingTimers()
        #expect(timers.timeoutMilliseconds(now: start) == -1)
        timers.add(every: .microseconds(1_500), now: start) {}
        #expect(timers.timeoutMilliseconds(now: start) == 2)
        #expect(timers.timeoutMilliseconds(now: start + .microseconds(1_500)) == 0)
        timers.removeAll()
        #expect(timers.timeoutMilliseconds(now: start) == -1)
    }

    @Test("only due timers are handed out, each due again one interval after the round")
    func dueTimers() {
        let start = ContinuousClock.now
        var timers = RepeatingTimers()
        var fired: [String] = []
        timers.add(every: .milliseconds(10), now: start) { fired.append("fast") }
        timers.add(every: .milliseconds(30), now: start) { fired.append("slow") }
        for body in timers.takeDue(now: start + .milliseconds(5)) { body() }
        #expect(fired.isEmpty)
        for body in timers.takeDue(now: start + .milliseconds(10)) { body() }
        #expect(fired == ["fast"])
        #expect(timers.timeoutMilliseconds(now: start + .milliseconds(10)) == 11)  // 10 ms left, plus one: never early
        for body in timers.takeDue(now: start + .milliseconds(30)) { body() }
        #expect(fired == ["fast", "fast", "slow"])
    }
}
