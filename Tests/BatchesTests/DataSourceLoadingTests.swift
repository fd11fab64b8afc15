import Testing
@testable import Batches

@Suite struct DataSourceLoadingTests {
    @Test func firstLoadHappensOnLoadNext() async throws {
        let h = Harness()
        defer { h.loader.finishAll() }
        #expect(h.loader.tokens.isEmpty)
        #expect(h.events.isEmpty)

        h.source.loadNext()
        try await h.waitForCalls(1)
        #expect(h.loader.tokens == ["a"])
        #expect(h.source.snapshot == BatchesSnapshot(isLoading: true, isCompleted: false, error: nil, offset: 0,
                                                     nextToken: "a"))

        h.loader.resolve(0, .items([10, 11, 12], next: "b"))
        try await h.waitForEvents(2)
        #expect(h.events == [.loading(offset: 0), .batch(items: [10, 11, 12], offset: 0, next: "b")])
        #expect(h.source.snapshot == BatchesSnapshot(isLoading: false, isCompleted: false, error: nil, offset: 3,
                                                     nextToken: "b"))
    }

    @Test func loadNextDuringALoadLoadsNothing() async throws {
        let h = Harness()
        defer { h.loader.finishAll() }
        for _ in 0..<5 { h.source.loadNext() }
        try await h.waitForCalls(1)
        h.loader.resolve(0, .items([1, 2], next: "b"))
        try await h.waitForEvents(2)
        #expect(h.loader.tokens == ["a"])
        #expect(h.events == [.loading(offset: 0), .batch(items: [1, 2], offset: 0, next: "b")])

        // The next loadNext loads the next page, once.
        h.source.loadNext()
        h.source.loadNext()
        try await h.waitForCalls(2)
        h.loader.resolve(1, .items([3], next: "c"))
        try await h.waitForEvents(4)
        #expect(h.loader.tokens == ["a", "b"])
        #expect(h.events.suffix(2) == [.loading(offset: 2), .batch(items: [3], offset: 2, next: "c")])
    }

    @Test func loadNextAfterCompletionLoadsNothing() async throws {
        let h = Harness()
        defer { h.loader.finishAll() }
        h.source.loadNext()
        try await h.waitForCalls(1)
        h.loader.resolve(0, .completed([7, 8]))
        try await h.waitForEvents(3)
        #expect(h.events == [.loading(offset: 0), .batch(items: [7, 8], offset: 0, next: nil), .completed(total: 2)])

        for _ in 0..<3 { h.source.loadNext() }
        #expect(h.events.count == 3)
        #expect(h.loader.tokens == ["a"])
        #expect(h.source.snapshot == BatchesSnapshot(isLoading: false, isCompleted: true, error: nil, offset: 2,
                                                     nextToken: nil))
    }

    @Test func emptyLastBatchCompletes() async throws {
        let h = Harness()
        defer { h.loader.finishAll() }
        h.source.loadNext()
        try await h.waitForCalls(1)
        h.loader.resolve(0, .completed([]))
        try await h.waitForEvents(3)
        #expect(h.events.last == .completed(total: 0))
    }

    @Test func resumeLoadsTheStartTokenAndReloadGoesBackToTheInitialOne() async throws {
        let h = Harness(start: (token: "p5", offset: 40))
        defer { h.loader.finishAll() }
        #expect(h.source.snapshot.offset == 40)
        h.source.loadNext()
        try await h.waitForCalls(1)
        h.loader.resolve(0, .items([40, 41], next: "p6"))
        try await h.waitForEvents(2)
        #expect(h.events == [.loading(offset: 40), .batch(items: [40, 41], offset: 40, next: "p6")])
        #expect(h.source.snapshot.offset == 42)

        h.source.reload()
        try await h.waitForCalls(2)
        #expect(h.loader.tokens == ["p5", "a"])
        #expect(h.events.suffix(2) == [.reset, .loading(offset: 0)])
    }

    @Test func aStuckCursorEndsTheListInsteadOfLoadingThePageAgain() async throws {
        let h = Harness()
        defer { h.loader.finishAll() }
        h.source.loadNext()
        try await h.waitForCalls(1)
        h.loader.resolve(0, .items([1], next: "a"))
        try await h.waitForEvents(3)
        #expect(h.events == [.loading(offset: 0), .batch(items: [1], offset: 0, next: nil), .completed(total: 1)])
        h.source.loadNext()
        #expect(h.loader.tokens == ["a"])
    }
}
