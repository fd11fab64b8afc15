import JSON
import Testing
@testable import Upstream

/// One viewer's walk: no item twice, empty pages skipped within a bound, cursor loops stopped.
@Suite struct PageWalkerTests {
    /// A cursor API whose page for cursor "p<i>" is `pages[i]` with next `nexts[i]`.
    static func api(_ pages: [[Int]], nexts: [String?]) -> @Sendable (FixtureRequest) -> FixtureReply {
        { request in
            let index = request.query["cursor"].flatMap { Int($0.dropFirst()) } ?? 0
            let next = nexts[index].map { "\"\($0)\"" } ?? "null"
            return .json("{\"data\":[\(pages[index].map { "{\"id\":\($0)}" }.joined(separator: ","))],\"next\":\(next)}")
        }
    }

    static func walkAll(_ handler: @escaping @Sendable (FixtureRequest) -> FixtureReply, maxEmpty: Int = 5) async throws -> [Int64] {
        let server = InProcessUpstream(handler: handler)
        defer { server.stop() }
        let source = PageSource<JSONValue>(client: server, template: PageRequestTemplate(url: server.baseURL + "/i"),
                                itemsPath: try JSONPath("data"), style: .cursor(parameter: "cursor", nextCursorPath: try JSONPath("next")))
        let walker = PageWalker<JSONValue>(keyPath: try JSONPath("id"), maxEmptyPages: maxEmpty)
        var ids: [Int64] = []
        var cursor: String? = nil
        for _ in 0..<20 {
            let page = try await walker.nextBatch(from: source, cursor: cursor)
            ids += page.items.compactMap { $0["id"]?.intValue }
            guard let next = page.nextCursor else { return ids }
            cursor = next
        }
        Issue.record("did not end")
        return ids
    }

    @Test func repeatedItemsAcrossPagesAreDropped() async throws {
        let ids = try await Self.walkAll(Self.api([[1, 2, 3], [3, 4, 5], [5, 6]], nexts: ["p1", "p2", nil]))
        #expect(ids == [1, 2, 3, 4, 5, 6])
    }

    @Test func emptyPagesWithACursorAreSkipped() async throws {
        let ids = try await Self.walkAll(Self.api([[1], [], [], [2]], nexts: ["p1", "p2", "p3", nil]))
        #expect(ids == [1, 2])
    }

    @Test func tooManyEmptyPagesInARowIsAnError() async throws {
        await #expect(throws: UpstreamError.invalidPage("3 empty pages in a row")) {
            _ = try await Self.walkAll(Self.api([[1], [], [], [], [2]], nexts: ["p1", "p2", "p3", "p4", nil]), maxEmpty: 2)
        }
    }

    @Test func aCursorLoopIsAnError() async throws {
        await #expect(throws: UpstreamError.invalidPage("the upstream's next cursor repeats an earlier one (a loop)")) {
            _ = try await Self.walkAll(Self.api([[1], [2], [3]], nexts: ["p1", "p2", "p1"]))
        }
    }
}

extension PageWalkerTests {
    /// A load that a reload or a timeout made stale may have had its page already; its walk must record nothing, or
    /// the reload's fresh walk of the same walker would find its first page's items repeats (and drop them).
    @Test func aCancelledWalkRecordsNothing() async throws {
        let walker = PageWalker<JSONValue>(keyPath: try JSONPath("id"))
        let page = UpstreamPage<JSONValue>(items: [["id": 1], ["id": 2]], nextCursor: "n")
        let stale = await Task { () -> UpstreamError? in
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(UpstreamError) { _ = try walker.admit(page, from: nil); return nil } catch { return error }
        }.value
        #expect(stale == .cancelled)
        #expect(walker.held.keys == 0, "nothing recorded")
        #expect(try walker.admit(page, from: nil).items.count == 2)
        #expect(walker.held.keys == 2)
    }
}
