import CSystem
import Dispatch
import EventLoop
import Glibc
import Testing

/// `EventLoop.pauseBeforeNextWait`: the next wait is put off by the pause only when nothing is ready by then (the
/// loop polls first), once per request; what arrives during the pause is handled in the iteration after it. The
/// loop's `pause` is replaced by one that records the pause and makes the arrivals itself, so nothing depends on time.
@Suite struct PauseBeforeWaitTests {
    /// What the loop did, recorded on the loop thread. Loop-confined.
    final class Record: EventHandler, @unchecked Sendable {
        let loop: EventLoop
        let fd: Int32
        var pauses: [Duration] = []
        /// Bytes read at each time the descriptor was reported, with the pauses taken before it.
        var reads: [(bytes: Int, pausesBefore: Int)] = []
        var onRead: (Record) -> Void = { _ in }
        init(loop: EventLoop, fd: Int32) {
            self.loop = loop
            self.fd = fd
        }
        func handleEvents(_ events: UInt32) {
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(fd, &buffer, buffer.count)
            reads.append((max(0, count), pauses.count))
            onRead(self)
        }
    }

    @Test(arguments: [false, true]) func aWaitIsPutOffOnlyWhenNothingIsReady(_ readyBefore: Bool) async throws {
        let loop = try EventLoop(index: 0)
        loop.start()
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let (readable, writable) = (ends[0], ends[1])
        @Sendable func put(_ count: Int) {
            for _ in 0..<count {
                var byte: UInt8 = 1
                _ = write(writable, &byte, 1)
            }
        }
        let record = await withCheckedContinuation { (done: CheckedContinuation<Record, Never>) in
            loop.execute {
                let record = Record(loop: loop, fd: readable)
                loop.pause = { duration in
                    record.pauses.append(duration)
                    put(2)  // two arrivals while the loop pauses
                }
                record.onRead = { record in
                    if record.reads.count == 1 {
                        // A later iteration's wait, not asked to pause, is not put off.
                        loop.execute { put(1) }
                    } else {
                        loop.deregister(readable)
                        loop.stop()
                        done.resume(returning: record)
                    }
                }
                try? loop.register(readable, record, events: csystem_EPOLLIN)
                if readyBefore { put(1) }
                loop.pauseBeforeNextWait(.milliseconds(7))
            }
        }
        #expect(loop.waitForExit(until: .now() + .seconds(30)))
        if readyBefore {
            // The poll found the descriptor ready: no pause; its byte handled at once.
            #expect(record.pauses.isEmpty)
            #expect(record.reads.map(\.bytes) == [1, 1])
        } else {
            // Nothing was ready: one pause of the length asked, both of its arrivals handled in one iteration after it.
            #expect(record.pauses == [.milliseconds(7)])
            #expect(record.reads.map(\.bytes) == [2, 1])
            #expect(record.reads.map(\.pausesBefore) == [1, 1])
        }
    }
}
