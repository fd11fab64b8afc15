import JSON
import Testing
@testable import Upstream

/// The list's total as a page reports it (issue 28, "150 of 2,500"): an offset style's `total` end, a configured
/// ``PageChecks/totalPath`` (DRF's `count`, Datasette's `filtered_table_rows_count`) on any style, and none when
/// nothing is configured or the value is not a count.
@Suite struct ReportedTotalTests {
    private func firstPage(_ body: String, items: String, style: PaginationStyle, totalPath: String? = nil) async throws
        -> UpstreamPage<JSONValue>
    {
        let server = InProcessUpstream { _ in .json(body) }
        defer { server.stop() }
        var checks = PageChecks()
        checks.totalPath = try totalPath.map { try JSONPath($0) }
        let source = try PaginationStyleWalkTests.source(server, path: "/items", items: items, style: style, checks: checks)
        return try await source.fetchPage(cursor: nil)
    }

    @Test func anOffsetStylesTotalEndIsTheTotal() async throws {
        let server = InProcessUpstream(handler: StyleAPI.offset(count: 25))
        defer { server.stop() }
        let source = try PaginationStyleWalkTests.source(server, path: "/items", items: "results",
                                                         style: .offset(parameter: "offset", end: .total(try JSONPath("total"))))
        let first = try await source.fetchPage(cursor: nil)
        #expect(first.total == 25 && first.items.count == 10)
        let cursor: String = try #require(first.nextCursor)
        let next = try await source.fetchPage(cursor: cursor)
        #expect(next.total == 25)
    }

    @Test func aPageNumberStylesTotalEndIsTheTotal() async throws {
        let page = try await firstPage(#"{"data": [{"id": 1}], "meta": {"total": 2500}}"#, items: "data",
                                       style: .pageNumber(parameter: "page", first: 1, end: .total(try JSONPath("meta.total"))))
        #expect(page.total == 2500)
    }

    @Test func drfCountOnANextURLStyle() async throws {
        let page = try await firstPage(#"{"count": 2500, "next": null, "results": [{"id": 1}, {"id": 2}]}"#,
                                       items: "results", style: .nextURL(path: try JSONPath("next")), totalPath: "count")
        #expect(page.total == 2500 && page.items.count == 2)
    }

    @Test func datasettesFilteredRowsCount() async throws {
        let body = #"{"rows": [{"id": 1}], "next": null, "filtered_table_rows_count": 150, "count": 9}"#
        let page = try await firstPage(body, items: "rows", style: .nextURL(path: try JSONPath("next")),
                                       totalPath: "filtered_table_rows_count")
        #expect(page.total == 150)
    }

    @Test func theConfiguredPathWinsOverAnOffsetStylesEnd() async throws {
        let page = try await firstPage(#"{"results": [{"id": 1}], "total": 1, "meta": {"count": 77}}"#, items: "results",
                                       style: .offset(parameter: "offset", end: .total(try JSONPath("total"))),
                                       totalPath: "meta.count")
        #expect(page.total == 77)
    }

    @Test func noTotalWithoutAPathOrForPageCounts() async throws {
        let cursor = try await firstPage(#"{"items": [{"id": 1}], "count": 5, "next": null}"#, items: "items",
                                         style: .cursor(parameter: "cursor", nextCursorPath: try JSONPath("next")))
        #expect(cursor.total == nil)
        let pages = try await firstPage(#"{"data": [{"id": 1}], "total_pages": 1}"#, items: "data",
                                        style: .pageNumber(parameter: "page", first: 1, end: .totalPages(try JSONPath("total_pages"))))
        #expect(pages.total == nil)
    }

    @Test(arguments: [#""2500""#, "-1", "2.5", "null", "true"])
    func aValueThatIsNotACountIsNoTotalAndFailsNothing(value: String) async throws {
        let page = try await firstPage(#"{"items": [{"id": 1}], "next": null, "count": \#(value)}"#, items: "items",
                                       style: .cursor(parameter: "cursor", nextCursorPath: try JSONPath("next")),
                                       totalPath: "count")
        #expect(page.total == nil && page.items.count == 1)
    }

    /// The walk hands its batch on as the batches take it: each page's items with the position after them and the
    /// total beside them, the last page's as `.completed` (no position past it).
    @Test func theWalksBatchesCarryTheTotalAndTheLastOneCompletes() async throws {
        let server = InProcessUpstream(handler: StyleAPI.offset(count: 25))
        defer { server.stop() }
        let source = try PaginationStyleWalkTests.source(server, path: "/items", items: "results",
                                                         style: .offset(parameter: "offset", end: .total(try JSONPath("total"))))
        let walker = PageWalker<JSONValue>(keyPath: try JSONPath("id"))
        var position: WalkPosition? = nil
        var counts: [Int] = []
        for _ in 0..<5 {
            let (batch, total) = try await walker.nextBatch(from: source, at: position)
            #expect(total == 25)
            switch batch {
            case .items(let items, let next):
                counts.append(next == nil ? 0 : items.count)
                position = next
                continue
            case .completed(let items):
                counts.append(-items.count)
            }
            break
        }
        #expect(counts == [10, 10, -5], "two batches with a position after them, then the last five, completed")
    }
}
