import HTTPServer
import Testing

/// `EventLoop.assertInLoop()`: a debug build checks every "loop-confined" thread rule (the whole `swift test` runs
/// with the checks on, which shows the rules hold); this suite shows the check is live.
@Suite("Event loop thread rule")
struct EventLoopThreadRuleTests {
    #if DEBUG
    @Test("a loop-confined call off the loop's thread traps in a debug build")
    func offTheLoopTraps() async {
        await #expect(processExitsWith: .failure) {
            let loop = try EventLoop(index: 0)
            loop.addRepeatingTimer(every: .seconds(60)) {}
        }
    }
    #endif

    @Test("on the loop's thread the same calls pass")
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
