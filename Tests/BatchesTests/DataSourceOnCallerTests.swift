import Testing
@testable import Batches

/// ``BatchesDataSource/loadNextOnCaller()``: the load starts on the calling thread (issue 17, arrivals). A loader
/// that answers without suspending has its batch delivered before the call returns, with no timeout armed; one that
/// suspends goes on as any load, timeout included.
@Suite struct DataSourceOnCallerTests {
    @Test func aLoaderThatAnswersAtOnceIsDeliveredBeforeTheCallReturns() {
        let clock = ManualClock()
        let recorder = EventRecorder<Int, String>()
        let source = BatchesDataSource<Int, String>(
            initialToken: "a", clock: clock, loader: { token in .items(token == "a" ? [1, 2] : [3], next: "b") },
            onEvent: recorder.onEvent)

        source.loadNextOnCaller()

        #expect(recorder.events == [.loading(offset: 0), .batch(items: [1, 2], offset: 0, next: "b")])
        #expect(clock.scheduledCount == 0, "a load over before it suspended arms no timeout")
        #expect(source.snapshot == BatchesSnapshot(isLoading: false, isCompleted: false, error: nil, offset: 2,
                                                   nextToken: "b"))
    }

    @Test func aLoaderThatSuspendsGoesOnAsAnyLoad() async throws {
        let h = Harness()
        defer { h.loader.finishAll() }

        h.source.loadNextOnCaller()

        // The loader was called on this thread, before the call returned; it is waiting now.
        #expect(h.loader.tokens == ["a"])
        #expect(h.events == [.loading(offset: 0)])
        #expect(h.clock.pendingDelays == [.seconds(30)], "a load that suspended is timed")
        h.loader.resolve(0, .items([10], next: "b"))
        try await h.waitForEvents(2)
        #expect(h.events == [.loading(offset: 0), .batch(items: [10], offset: 0, next: "b")])
        #expect(h.clock.pendingDelays.isEmpty)
    }

    @Test func aSuspendedLoadStartedOnTheCallerStillTimesOut() async throws {
        let h = Harness(loadTimeout: .seconds(5))
        defer { h.loader.finishAll() }
        h.source.loadNextOnCaller()
        h.clock.advance(by: .seconds(5))
        try await h.waitForEvents(2)
        guard case .failed(let failure, let offset) = h.events[1] else {
            Issue.record("expected a failure, got \(h.events)"); return
        }
        #expect(offset == 0 && failure.isRetryable)
    }

    @Test func aLoadThatFailsAtOnceIsDeliveredToo() {
        let recorder = EventRecorder<Int, String>()
        let source = BatchesDataSource<Int, String>(
            initialToken: "a", clock: ManualClock(), loader: { _ in throw LoadFailure(message: "no", isRetryable: true) },
            onEvent: recorder.onEvent)
        source.loadNextOnCaller()
        #expect(recorder.events.count == 2)
        #expect(source.snapshot.error?.message == "no")
    }
}
