import CSystem
import Dispatch
import EventLoop
import Glibc
import Testing

/// `EventLoop.lastWaitFilled`: whether the iteration's wait reported as many descriptors as it takes (256), so others
/// may be ready that it did not report (HTTPServer drains its listener at the end of such an iteration only).
@Suite struct LastWaitFilledTests {
    /// Records what the loop said when its descriptor was reported, and stops watching it. Loop-confined.
    final class Recorder: EventHandler, @unchecked Sendable {
        let loop: EventLoop
        let fd: Int32
        let saw: (Bool) -> Void
        init(loop: EventLoop, fd: Int32, saw: @escaping (Bool) -> Void) {
            self.loop = loop
            self.fd = fd
            self.saw = saw
        }
        func handleEvents(_ events: UInt32) {
            loop.deregister(fd)
            saw(loop.lastWaitFilled)
        }
    }

    @Test(arguments: [10, 300]) func aWaitIsFilledOnlyWhenMoreAreReadyThanItTakes(_ ready: Int) async throws {
        let loop = try EventLoop(index: 0)
        loop.start()
        var pipes: [(Int32, Int32)] = []
        defer { for (read, write) in pipes { close(read); close(write) } }
        for _ in 0..<ready {
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            pipes.append((ends[0], ends[1]))
            var byte: UInt8 = 1
            try #require(write(ends[1], &byte, 1) == 1)
        }
        let readable = pipes.map(\.0)
        let seen = await withCheckedContinuation { (done: CheckedContinuation<[Bool], Never>) in
            loop.execute {
                var seen: [Bool] = []
                // All registered in one iteration, all ready before the next wait.
                for fd in readable {
                    let recorder = Recorder(loop: loop, fd: fd) { filled in
                        seen.append(filled)
                        if seen.count == readable.count { loop.stop(); done.resume(returning: seen) }
                    }
                    try? loop.register(fd, recorder, events: csystem_EPOLLIN)
                }
            }
        }
        #expect(loop.waitForExit(until: .now() + .seconds(30)))
        #expect(seen.count == ready)
        // 300 ready: the first wait took 256 of them, filled; the next one the other 44, not.
        #expect(seen.filter { $0 }.count == (ready > 256 ? 256 : 0))
    }
}
