import Locking
import Synchronization
import TestSupport
import Testing
@testable import Batches

@Suite struct DataSourceReloadTests {
    @Test func reloadDuringALoadDiscardsTheStaleResultAndLoadsPageOneAgain() async throws {
        let h = Harness()
        defer { h.loader.finishAll() }
        h.source.loadNext()
        try await h.waitForCalls(1)
        h.loader.resolve(0, .items([0, 1], next: "b"))
        try await h.waitForEvents(2)
        h.source.loadNext()
        try await h.waitForCalls(2)

        h.source.reload()
        try await h.waitForCalls(3)
        #expect(h.loader.tokens == ["a", "b", "a"])
        #expect(h.source.snapshot.offset == 0)

        // The loader ignores cancellation: its stale page "b" still arrives, and must be dropped.
        h.loader.resolve(1, .items([2, 3], next: "c"))
        try await h.waitForDiscarded(1)
        h.loader.resolve(2, .items([100, 101], next: "b"))
        try await h.waitForEvents(6)
        #expect(h.events == [
            .loading(offset: 0), .batch(items: [0, 1], offset: 0, next: "b"),
            .loading(offset: 2), .reset, .loading(offset: 0), .batch(items: [100, 101], offset: 0, next: "b"),
        ])
    }

    @Test func reloadWithAnotherLoaderLoadsEveryLaterBatchWithIt() async throws {
        // A viewer's new sort choice: the reload's batch and the ones after it come from the new loader; the old
        // loader's batch in flight is discarded.
        let h = Harness()
        let chosen = FakeLoader<String>()
        defer { h.loader.finishAll(); chosen.finishAll() }
        h.source.loadNext()
        try await h.waitForCalls(1)
        h.source.reload(with: chosen.loader)
        try #require(await eventually { chosen.tokens.count == 1 }, "the reload's load")
        h.loader.resolve(0, .items([0], next: "b"))
        try await h.waitForDiscarded(1)
        chosen.resolve(0, .items([10], next: "z"))
        try await h.waitForEvents(4)
        h.source.loadNext()
        try #require(await eventually { chosen.tokens.count == 2 }, "the next load")
        chosen.resolve(1, .completed([11]))
        try await h.waitForEvents(7)
        #expect(h.loader.tokens == ["a"])
        #expect(chosen.tokens == ["a", "z"])
        #expect(h.events == [
            .loading(offset: 0), .reset, .loading(offset: 0), .batch(items: [10], offset: 0, next: "z"),
            .loading(offset: 1), .batch(items: [11], offset: 1, next: nil), .completed(total: 2),
        ])
    }

    @Test func reloadCancelsTheTaskOfTheLoadInFlight() async throws {
        // The first load waits at a gate the test never releases before the end (no clock to race): the gate
        // counts whether its task was cancelled while it waited.
        let gate = ReplyGate()
        defer { gate.releaseAll() }
        let calls = Atomic<Int>(0)
        let recorder = EventRecorder<Int, Int>()
        let source = BatchesDataSource<Int, Int>(
            initialToken: 1, clock: ManualClock(),
            loader: { page in
                if calls.wrappingAdd(1, ordering: .relaxed).oldValue == 0 {
                    _ = await gate.pass()
                    throw CancellationError()
                }
                return .completed([page])
            },
            onEvent: recorder.onEvent)
        source.loadNext()
        // Reload only once the first load is inside the loader; before that, a cancelled task may never call it.
        try #require(await eventually { calls.load(ordering: .relaxed) == 1 }, "the first load started")
        source.reload()
        try #require(await eventually { gate.cancelled == 1 }, "the first task cancelled")
        try #require(await eventually { recorder.events.count == 5 }, "the reload's batch")
        #expect(recorder.events == [
            .loading(offset: 0), .reset, .loading(offset: 0), .batch(items: [1], offset: 0, next: nil),
            .completed(total: 1),
        ])
        try #require(await eventually { source.discardedOutcomeCount == 1 }, "the cancelled load discarded")
    }

    @Test func reloadAfterCompletionStartsOver() async throws {
        let h = Harness()
        defer { h.loader.finishAll() }
        h.source.loadNext()
        try await h.waitForCalls(1)
        h.loader.resolve(0, .completed([5]))
        try await h.waitForEvents(3)
        h.source.reload()
        try await h.waitForCalls(2)
        #expect(h.events.suffix(2) == [.reset, .loading(offset: 0)])
        #expect(h.source.snapshot.isLoading)
        #expect(!h.source.snapshot.isCompleted)
    }

    @Test func eventsMayCallBackIntoTheDataSource() async throws {
        // A viewer that prefetches: every batch asks for the next one from inside onEvent.
        let box = Lock<BatchesDataSource<Int, Int>?>(nil)
        let recorder = EventRecorder<Int, Int>(after: { event in
            if case .batch = event { box.withLock { $0 }?.loadNext() }
        })
        let source = BatchesDataSource<Int, Int>(
            initialToken: 0, clock: ManualClock(),
            loader: { page in page < 3 ? .items([page], next: page + 1) : .completed([page]) },
            onEvent: recorder.onEvent)
        box.withLock { $0 = source }
        defer { box.withLock { $0 = nil } }
        source.loadNext()
        try #require(await eventually { source.snapshot.isCompleted }, "completion")
        try #require(await eventually { recorder.events.count == 9 }, "all events")
        #expect(recorder.events.last == .completed(total: 4))
        #expect(recorder.overlapCount == 0)
    }
}
