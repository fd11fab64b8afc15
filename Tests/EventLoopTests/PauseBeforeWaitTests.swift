import CSystem
import Dispatch
import EventLoop
import Glibc
import Synchronization
import Testing

/// `EventLoop.pauseBeforeNextWait`: the next wait is put off by the pause only when nothing is ready by then and no
/// timer is due (the loop polls first), once per request; what arrives during the pause is handled in the iteration
/// after it. The loop's `pause` is replaced by one that records the pause and makes the arrivals itself, so nothing
/// depends on time.
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
        let outcome = await Self.run(on: loop) { done in
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
                    done(record)
                }
            }
            try? loop.register(readable, record, events: csystem_EPOLLIN)
            if readyBefore { put(1) }
            loop.pauseBeforeNextWait(.milliseconds(7))
        }
        let record = try #require(outcome, "the loop handled both reads")
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

    @Test func aPauseEndsByTheNextTimer() async throws {
        let loop = try EventLoop(index: 0)
        loop.start()
        let outcome = await Self.run(on: loop) { done in
            let record = Record(loop: loop, fd: -1)
            loop.pause = { record.pauses.append($0) }  // records the length asked, sleeps none
            loop.addRepeatingTimer(every: .milliseconds(3)) { done(record) }
            loop.pauseBeforeNextWait(.seconds(1))
        }
        let record = try #require(outcome, "the timer ran")
        // Cut to the timer's 3 ms (and the millisecond epoll_wait rounds up to), or none if it was due by then.
        #expect(record.pauses.allSatisfy { $0 <= .milliseconds(4) }, "\(record.pauses)")
    }

    /// True for the first caller only. Thread-safe.
    final class Once: Sendable {
        private let taken = Mutex(false)
        func first() -> Bool { taken.withLock { taken in defer { taken = true }; return !taken } }
    }

    /// Runs `start` on `loop`, which calls `done` once on the loop with the record; then stops the loop. Nil when
    /// `done` was not called within 30 s (a watchdog answers instead, so a broken loop fails the test, not hangs it).
    private static func run(on loop: EventLoop, _ start: @escaping @Sendable (@escaping (Record) -> Void) -> Void) async
        -> Record? {
        let answered = Once()
        let record = await withCheckedContinuation { (continuation: CheckedContinuation<Record?, Never>) in
            let finish: @Sendable (Record?) -> Void = { record in
                if answered.first() { continuation.resume(returning: record) }
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(30)) { finish(nil) }
            loop.execute {
                start { record in
                    loop.stop()
                    finish(record)
                }
            }
        }
        if record == nil { loop.execute { loop.stop() } }
        #expect(loop.waitForExit(until: .now() + .seconds(30)))
        return record
    }
}
