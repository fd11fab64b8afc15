import Batches
import Locking
import Tables
import Testing
@testable import RowstreamKit

/// A viewer's first batch from memory (issue 29, arrivals): a source's in-memory answers made from the same object
/// (a cached page) are one batch, its rows made and its position sealed once for all viewers; an answer made from
/// another object (the cache's next page) is that page's batch, never the last one's.
@Suite struct InMemoryBatchTests {
    /// A page the source answers from memory; swapped by the test.
    final class Page: Sendable {
        let items: [String]
        init(_ items: [String]) { self.items = items }
    }

    /// What the test changes and counts. Thread-safe: locks.
    final class Shared: Sendable {
        let page = Lock(Page(["a", "b"]))
        let made = Lock(0)
    }

    /// A source whose first batch is `page` from memory (its next token 1), and whose async loads the test never asks.
    struct MemorySource: RowSource {
        let shared: Shared
        var initialToken: Int { 0 }
        var startsOnCaller: Bool { true }
        var readsViewerHeaders: Bool { false }
        func walk(for request: RowRequest) {}
        func batch(at token: Int, in walk: Void) async throws -> LoadResult<String, Int> { .completed([]) }
        func batchInMemory(at token: Int, in walk: Void) -> InMemoryBatch<String, Int>? {
            let page = shared.page.withLock { $0 }
            return InMemoryBatch(.items(page.items, next: 1), madeFrom: page)
        }
    }

    static func rows(of batch: LoadResult<Row, TablePosition>?) -> [String] {
        guard case .items(let rows, _)? = batch else { return [] }
        return rows.map { $0.key ?? "" }
    }

    @Test func answersFromOnePageAreOneBatchAndAnotherPagesAreItsOwn() throws {
        let shared = Shared()
        let source = MemorySource(shared: shared)
        let table = TableBinding(name: "t", title: "T", columns: [TableColumn("V")], rows: source) { value, row in
            shared.made.withLock { $0 += 1 }
            row.key = value
            row.text(value)
        }
        let first = table.loaders(for: RowRequest()).inMemory?(.first)
        let second = table.loaders(for: RowRequest()).inMemory?(.first)
        #expect(Self.rows(of: first) == ["a", "b"] && Self.rows(of: second) == ["a", "b"])
        guard case .items(_, let one)? = first, case .items(_, let two)? = second else {
            Issue.record("no batches")
            return
        }
        #expect(one == two, "one position for both")
        let made = shared.made.withLock { $0 }
        #expect(made == 2, "the rows made once (two items)")

        shared.page.withLock { $0 = Page(["c"]) }  // the cache's next page
        let third = table.loaders(for: RowRequest()).inMemory?(.first)
        #expect(Self.rows(of: third) == ["c"], "the new page's batch, not the last one's")
    }
}
