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
