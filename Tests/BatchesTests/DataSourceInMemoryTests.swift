import Locking
import TestSupport
import Testing
@testable import Batches

/// ``BatchesDataSource/loadNextOnCaller()`` asks the in-memory loader first (issue 29, arrivals): its answer is the
/// load's outcome at once, delivered before the call returns with no task and no timer; nil lets the loader load as
/// before. Only the caller's load asks it, and a reload with another loader drops it.
@Suite struct DataSourceInMemoryTests {
    /// Counts the calls of the async loader and of the in-memory one. Thread-safe.
    final class Calls: Sendable {
        let loads = Lock<[String]>([])
        let inMemory = Lock<[String]>([])
    }

    static func source(_ calls: Calls, answersInMemory: Bool, clock: ManualClock = ManualClock(),
                       recorder: EventRecorder<Int, String>) -> BatchesDataSource<Int, String> {
        BatchesDataSource<Int, String>(
            initialToken: "a", clock: clock,
            loader: { token in
                calls.loads.withLock { $0.append(token) }
                return .items([10], next: "b")
            },
            inMemory: { token in
                calls.inMemory.withLock { $0.append(token) }
                return answersInMemory ? .items([1, 2], next: "m") : nil
            },
            onEvent: recorder.onEvent)
    }

    @Test func anAnswerFromMemoryIsDeliveredBeforeTheCallReturnsWithNoLoad() {
        let calls = Calls(), recorder = EventRecorder<Int, String>(), clock = ManualClock()
        let source = Self.source(calls, answersInMemory: true, clock: clock, recorder: recorder)
        source.loadNextOnCaller()
        #expect(recorder.events == [.loading(offset: 0), .batch(items: [1, 2], offset: 0, next: "m")])
        #expect(calls.inMemory.withLock { $0 } == ["a"])
        #expect(calls.loads.withLock { $0 }.isEmpty, "the async loader was not asked")
        #expect(clock.scheduledCount == 0, "no timeout armed")
        #expect(source.snapshot.nextToken == "m" && !source.snapshot.isLoading)
        // Asked once: the next load on the caller is the loader's (an idle viewer keeps no in-memory loader).
        source.loadNextOnCaller()
        #expect(calls.inMemory.withLock { $0 } == ["a"])
        #expect(calls.loads.withLock { $0 } == ["m"])
    }

    @Test func noAnswerFromMemoryLeavesTheLoadToTheLoader() {
        let calls = Calls(), recorder = EventRecorder<Int, String>()
        let source = Self.source(calls, answersInMemory: false, recorder: recorder)
        source.loadNextOnCaller()
        #expect(calls.inMemory.withLock { $0 } == ["a"])
        #expect(calls.loads.withLock { $0 } == ["a"])
        #expect(recorder.events == [.loading(offset: 0), .batch(items: [10], offset: 0, next: "b")])
    }

    @Test func onlyTheCallersLoadAsksAndAReloadWithAnotherLoaderDropsIt() async throws {
        let calls = Calls(), recorder = EventRecorder<Int, String>()
        let source = Self.source(calls, answersInMemory: true, recorder: recorder)
        source.loadNext()  // not on the caller: the loader, in a task
        #expect(await eventually { recorder.events.count == 2 })
        #expect(calls.inMemory.withLock { $0 }.isEmpty)
        #expect(calls.loads.withLock { $0 } == ["a"])
        source.reload(with: { token in
            calls.loads.withLock { $0.append("new " + token) }
            return .items([20], next: "c")
        })
        #expect(await eventually { recorder.events.count == 5 })  // reset, loading, batch
        source.loadNextOnCaller()
        #expect(calls.inMemory.withLock { $0 }.isEmpty, "the old loader's memory is not the new one's")
        #expect(calls.loads.withLock { $0 } == ["a", "new a", "new c"])
    }
}
