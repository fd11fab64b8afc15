import Testing
@testable import Batches

@Suite struct DataSourceFailureTests {
    @Test func failureThenLoadNextRetriesTheSameToken() async throws {
        let h = Harness()
        defer { h.loader.finishAll() }
        h.source.loadNext()
        try await h.waitForCalls(1)
        h.loader.resolve(0, .items([0, 1, 2], next: "b"))
        try await h.waitForEvents(2)

        h.source.loadNext()
        try await h.waitForCalls(2)
        let failure = LoadFailure(message: "HTTP 503", isRetryable: true)
        h.loader.fail(1, failure)
        try await h.waitForEvents(4)
        #expect(h.events.last == .failed(failure, offset: 3))
        #expect(h.source.snapshot.error == failure)
        #expect(h.source.snapshot.nextToken == "b")

        h.source.loadNext()
        try await h.waitForCalls(3)
        #expect(h.loader.tokens == ["a", "b", "b"])
        #expect(h.source.snapshot.error == nil)
        h.loader.resolve(2, .items([3], next: "c"))
        try await h.waitForEvents(6)
        #expect(h.events.suffix(2) == [.loading(offset: 3), .batch(items: [3], offset: 3, next: "c")])
    }

    @Test func otherErrorsBecomeRetryableFailures() async throws {
        let h = Harness()
        defer { h.loader.finishAll() }
        h.source.loadNext()
        try await h.waitForCalls(1)
        h.loader.fail(0, UpstreamDown())
        try await h.waitForEvents(2)
        #expect(h.events.last == .failed(LoadFailure(message: "upstream down", isRetryable: true), offset: 0))
    }

    @Test func aLoadFailureKeepsItsRetryability() async throws {
        let h = Harness()
        defer { h.loader.finishAll() }
        h.source.loadNext()
        try await h.waitForCalls(1)
        let failure = LoadFailure(message: "HTTP 404", isRetryable: false)
        h.loader.fail(0, failure)
        try await h.waitForEvents(2)
        #expect(h.events.last == .failed(failure, offset: 0))
    }

    @Test func aTimeoutFailsRetryablyAndTheLateResultIsDiscarded() async throws {
        let h = Harness(loadTimeout: .seconds(30))
        defer { h.loader.finishAll() }
        h.source.loadNext()
        try await h.waitForCalls(1)
        #expect(h.clock.pendingDelays == [.seconds(30)])

        h.clock.advance(by: .seconds(29))
        #expect(h.events == [.loading(offset: 0)])
        h.clock.advance(by: .seconds(1))
        #expect(h.events == [.loading(offset: 0), .failed(.timedOut, offset: 0)])
        #expect(h.source.snapshot.error == LoadFailure(message: "timed out", isRetryable: true))

        h.loader.resolve(0, .items([1, 2], next: "b"))
        try await h.waitForDiscarded(1)
        #expect(h.events.count == 2)

        h.source.loadNext()
        try await h.waitForCalls(2)
        #expect(h.loader.tokens == ["a", "a"])
        h.loader.resolve(1, .items([1, 2], next: "b"))
        try await h.waitForEvents(4)
        #expect(h.events.suffix(2) == [.loading(offset: 0), .batch(items: [1, 2], offset: 0, next: "b")])
        #expect(h.clock.pendingDelays.isEmpty, "a finished load disarms its timer")
    }

    @Test func cancelStopsEverything() async throws {
        let h = Harness()
        defer { h.loader.finishAll() }
        h.source.loadNext()
        try await h.waitForCalls(1)
        h.source.cancel()
        #expect(h.source.snapshot.isCancelled)
        #expect(h.clock.pendingDelays.isEmpty)

        h.loader.resolve(0, .items([1], next: "b"))
        try await h.waitForDiscarded(1)
        h.source.loadNext()
        h.source.reload()
        #expect(h.events == [.loading(offset: 0)])
        #expect(h.loader.tokens == ["a"])
    }
}
