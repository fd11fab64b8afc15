import Dispatch
import Synchronization
import Testing
@testable import EventLoop

/// The loop as a task executor: a task that prefers it goes on on the loop thread after it suspends; a task whose
/// job comes after the loop stopped still runs to its end (on the global executor), never left suspended.
@Suite struct LoopTaskExecutorTests {
    /// A value handed over once, from any thread. Thread-safe.
    final class Box: Sendable {
        let continuation = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let done = Atomic<Bool>(false)
        let onLoop = Atomic<Int>(-1)
        func resume() { continuation.withLock { $0.take() }?.resume() }
    }

    @Test(arguments: [false, true]) func aTaskPreferringTheLoopGoesOnThereAfterItSuspends(_ loopStopsFirst: Bool) async throws {
        let loop = try EventLoop(index: 0)
        loop.start()
        let box = Box()
        _ = Task(executorPreference: loop) {
            await withCheckedContinuation { continuation in box.continuation.withLock { $0 = continuation } }
            box.onLoop.store(loop.inEventLoop ? 1 : 0, ordering: .relaxed)
            box.done.store(true, ordering: .releasing)
        }
        for _ in 0..<3_000 where box.continuation.withLock({ $0 == nil }) { try await Task.sleep(for: .milliseconds(10)) }
        if loopStopsFirst {
            loop.execute { loop.stop() }
            #expect(loop.waitForExit(until: .now() + .seconds(30)))
        }
        box.resume()  // from this thread, not the loop's
        for _ in 0..<3_000 where !box.done.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(10)) }
        let finished = box.done.load(ordering: .acquiring)
        #expect(finished, "the task was left suspended")
        let ranOnLoop = box.onLoop.load(ordering: .relaxed)
        #expect(ranOnLoop == (loopStopsFirst ? 0 : 1))
        if !loopStopsFirst {
            loop.execute { loop.stop() }
            #expect(loop.waitForExit(until: .now() + .seconds(30)))
        }
    }
}
