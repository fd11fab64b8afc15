import Locking
import TestSupport
import Testing
@testable import Batches

/// The two token styles a loader can use: page numbers and opaque cursors.
@Suite struct PaginationStyleTests {
    /// Calls loadNext after each batch until the list completes; returns the events.
    private func loadAll<Token: Sendable & Equatable>(
        initialToken: Token, loader: @escaping BatchesDataSource<String, Token>.Loader
    ) async throws -> [BatchesEvent<String, Token>] {
        let recorder = EventRecorder<String, Token>()
        let source = BatchesDataSource(initialToken: initialToken, clock: ManualClock(), loader: loader,
                                       onEvent: recorder.onEvent)
        for step in 0..<20 where !source.snapshot.isCompleted {
            source.loadNext()
            try #require(await eventually { !source.snapshot.isLoading }, "step \(step) done")
        }
        #expect(source.snapshot.isCompleted)
        return recorder.events
    }

    @Test func pageNumbers() async throws {
        let pages = Lock<[Int]>([])
        let events = try await loadAll(initialToken: 1) { (page: Int) in
            pages.withLock { $0.append(page) }
            let rows = ["row \(page * 2 - 1)", "row \(page * 2)"]
            return page < 3 ? .items(rows, next: page + 1) : .completed(rows)
        }
        #expect(pages.withLock { $0 } == [1, 2, 3])
        #expect(events == [
            .loading(offset: 0), .batch(items: ["row 1", "row 2"], offset: 0, next: 2),
            .loading(offset: 2), .batch(items: ["row 3", "row 4"], offset: 2, next: 3),
            .loading(offset: 4), .batch(items: ["row 5", "row 6"], offset: 4, next: nil),
            .completed(total: 6),
        ])
    }

    @Test func cursors() async throws {
        let upstream: [String: (rows: [String], next: String?)] = [
            "": (["ada", "bob"], "c2FsdA"),
            "c2FsdA": (["cy"], "ZW5k"),
            "ZW5k": ([], nil),
        ]
        let events = try await loadAll(initialToken: "") { (cursor: String) in
            guard let page = upstream[cursor] else { throw LoadFailure(message: "bad cursor", isRetryable: false) }
            if let next = page.next { return .items(page.rows, next: next) }
            return .completed(page.rows)
        }
        #expect(events == [
            .loading(offset: 0), .batch(items: ["ada", "bob"], offset: 0, next: "c2FsdA"),
            .loading(offset: 2), .batch(items: ["cy"], offset: 2, next: "ZW5k"),
            .loading(offset: 3), .batch(items: [], offset: 3, next: nil),
            .completed(total: 3),
        ])
    }
}
