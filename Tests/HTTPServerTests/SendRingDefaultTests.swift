import Testing
@testable import HTTPServer

/// io_uring sends are on unless `ROWSTREAM_IO_URING=off` (docs/OPERATING.md); where the kernel refuses a ring, a loop
/// sends with `sendmsg` (the `.refused` path of CoalescedSendTests and BroadcastTests).
@Suite struct SendRingDefaultTests {
    @Test(arguments: [(nil, true), ("on", true), ("", true), ("off", false)] as [(String?, Bool)])
    func onUnlessTheEnvironmentSaysOff(value: String?, enabled: Bool) {
        #expect(SendRing.enabled(environmentValue: value) == enabled)
    }
}
