import Dispatch
import EventLoop
import Testing

/// `EventLoop.assertInLoop()`: a debug build checks every "loop-confined" thread rule (the whole `swift test` runs
/// with the checks on, which shows the rules hold). A call off the loop traps; that is not tested here, since an
/// exit test's monitor thread was seen spinning under load on Linux.
@Suite("Event loop thread rule")
struct EventLoopThreadRuleTests {
    @Test("loop-confined calls on the loop's thread pass the check")
    func onTheLoopPasses() async throws {
        let loop = try EventLoop(index: 0)
        loop.start()
        let ran = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            loop.execute {
                loop.assertInLoop()
                loop.addRepeatingTimer(every: .seconds(60)) {}
                loop.stop()
                done.resume(returning: loop.inEventLoop)
            }
        }
        #expect(ran)
    }
}

/// The loop calls due timers' bodies after taking them from its timers, so a body may add a timer (a nested access to
/// the timers would trap on Swift's exclusivity check).
@Suite("Event loop timers")
struct EventLoopTimerTests {
    @Test("a timer's body adds a timer, which then fires on the loop")
    func aTimerAddsATimer() async throws {
        let loop = try EventLoop(index: 0)
        loop.start()
        let firedOnLoop = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            loop.execute {
                var added = false
                loop.addRepeatingTimer(every: .milliseconds(1)) {
                    guard !added else { return }
                    added = true
                    var resumed = false
                    loop.addRepeatingTimer(every: .milliseconds(1)) {
                        guard !resumed else { return }
                        resumed = true
                        // Off the loop (the rule broken) the test fails, not hangs: it resumes with false, and the
                        // loop is stopped from the loop (stop is loop-confined).
                        let onLoop = loop.inEventLoop
                        if onLoop { loop.stop() } else { loop.execute { loop.stop() } }
                        done.resume(returning: onLoop)
                    }
                }
            }
        }
        #expect(firedOnLoop)
        #expect(loop.waitForExit(until: .now() + .seconds(10)))
    }
}
