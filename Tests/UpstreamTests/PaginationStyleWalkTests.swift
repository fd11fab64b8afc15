import JSON
import Testing
@testable import Upstream

/// Every pagination style walked to its end against a fixture upstream of that style.
@Suite struct PaginationStyleWalkTests {
    /// Fetches pages from the first until the end; returns the ids in order and the pages fetched.
    static func walk(_ source: PageSource<JSONValue>, limit: Int = 30) async throws -> (ids: [Int64], pages: Int) {
        var ids: [Int64] = []
        var cursor: String?
        for pageCount in 1...limit {
            let page = try await source.fetchPage(cursor: cursor)
            ids += page.items.compactMap { $0["id"]?.intValue }
            guard let next = page.nextCursor else { return (ids, pageCount) }
            cursor = next
        }
        Issue.record("the walk did not end")
        return (ids, limit)
    }

    static func source(_ server: InProcessUpstream, path: String, items: String,
                       style: PaginationStyle, size: Int = 10, sizeParameter: String? = "limit",
                       checks: PageChecks = PageChecks(), method: String = "GET", body: JSONValue? = nil) throws -> PageSource<JSONValue> {
        var template = PageRequestTemplate(url: server.baseURL + path)
        template.pageSize = size
        template.limitParameter = sizeParameter
        template.method = method
        template.body = body
        return PageSource<JSONValue>(client: server, template: template, itemsPath: try JSONPath(items), style: style, checks: checks)
    }

    private func run(_ handler: @escaping @Sendable (FixtureRequest) -> FixtureReply,
                     _ make: (InProcessUpstream) throws -> PageSource<JSONValue>) async throws -> (ids: [Int64], pages: Int, server: InProcessUpstream) {
        let server = InProcessUpstream(handler: handler)
        defer { server.stop() }
        let (ids, pages) = try await Self.walk(try make(server))
        return (ids, pages, server)
    }

    @Test func linkHeader() async throws {
        let result = try await run(StyleAPI.linkHeader(count: 25)) { server in
            try Self.source(server, path: "/repos", items: "", style: .linkHeader, sizeParameter: "per_page")
        }
        #expect(result.ids == Array(1...25))
        #expect(result.pages == 3)
    }

    @Test func nextURLInTheBodyRelativeToThePage() async throws {
        let result = try await run(StyleAPI.nextURL(count: 23)) { server in
            try Self.source(server, path: "/items", items: "data", style: .nextURL(path: try JSONPath("links.next")))
        }
        #expect(result.ids == Array(1...23))
        #expect(result.pages == 3)
        #expect(result.server.requests.last?.target == "/items?after=20&limit=10")
    }

    @Test func cursorTokenInTheQuery() async throws {
        let result = try await run(StyleAPI.cursor(count: 30)) { server in
            try Self.source(server, path: "/items", items: "items",
                            style: .cursor(parameter: "cursor", nextCursorPath: try JSONPath("meta.next_token")))
        }
        #expect(result.ids == Array(1...30))
        #expect(result.pages == 3)
    }

    @Test func cursorTokenInAJSONBody() async throws {
        let result = try await run(StyleAPI.cursor(count: 15, inBody: true)) { server in
            try Self.source(server, path: "/search", items: "items",
                            style: .cursorInBody(field: "cursor", nextCursorPath: try JSONPath("meta.next_token")),
                            method: "POST", body: ["query": "all"])
        }
        #expect(result.ids == Array(1...15))
        let second = try #require(result.server.requests.dropFirst().first)
        #expect(try JSONValue.parse(second.body) == ["query": "all", "cursor": "tok10"])
        #expect(second.header("content-type") == "application/json")
    }

    @Test func keysetWithHasMore() async throws {
        var checks = PageChecks()
        checks.hasMorePath = try JSONPath("has_more")
        let result = try await run(StyleAPI.keyset(count: 20)) { server in
            try Self.source(server, path: "/charges", items: "data",
                            style: .keyset(parameter: "starting_after", keyPath: try JSONPath("id")), checks: checks)
        }
        #expect(result.ids == Array(1...20))
        #expect(result.pages == 2, "has_more=false on a full page ends the list without an extra request")
        #expect(result.server.requests.last?.query["starting_after"] == "10")
    }

    @Test func keysetEndsOnAShortPage() async throws {
        let result = try await run(StyleAPI.keyset(count: 25)) { server in
            try Self.source(server, path: "/charges", items: "data",
                            style: .keyset(parameter: "starting_after", keyPath: try JSONPath("id")))
        }
        #expect(result.ids == Array(1...25))
        #expect(result.pages == 3)
    }

    @Test(arguments: [PageEnd.total(try! JSONPath("total")), .shortPage, .emptyPage])
    func offsetLimit(end: PageEnd) async throws {
        let result = try await run(StyleAPI.offset(count: 30)) { server in
            try Self.source(server, path: "/list", items: "results", style: .offset(parameter: "offset", end: end))
        }
        #expect(result.ids == Array(1...30))
        // 30 items in pages of 10: the total or a short page is not needed to stop... except with an exact
        // multiple, where only the total avoids the extra empty page.
        #expect(result.pages == (end == .total(try JSONPath("total")) ? 3 : 4))
    }

    @Test func pageNumbersWithTotalPages() async throws {
        let result = try await run(StyleAPI.pageNumber(count: 35)) { server in
            try Self.source(server, path: "/list", items: "items",
                            style: .pageNumber(parameter: "page", first: 1, end: .totalPages(try JSONPath("total_pages"))),
                            sizeParameter: "per_page")
        }
        #expect(result.ids == Array(1...35))
        #expect(result.pages == 4)
        #expect(result.server.requests.map { $0.query["page"] } == ["1", "2", "3", "4"])
    }

    @Test func pageNumbersEndOnAShortPage() async throws {
        let result = try await run(StyleAPI.pageNumber(count: 35, withTotal: false)) { server in
            try Self.source(server, path: "/list", items: "items",
                            style: .pageNumber(parameter: "page", first: 1, end: .shortPage), sizeParameter: "per_page")
        }
        #expect(result.ids == Array(1...35))
        #expect(result.pages == 4)
    }

    @Test func nestedEdgesWithAHasNextPageFlag() async throws {
        var checks = PageChecks()
        checks.hasMorePath = try JSONPath("data.users.pageInfo.hasNextPage")
        let result = try await run(StyleAPI.edges(count: 12)) { server in
            try Self.source(server, path: "/users", items: "data.users.edges[].node",
                            style: .cursor(parameter: "after", nextCursorPath: try JSONPath("data.users.pageInfo.endCursor")),
                            size: 5, sizeParameter: "first", checks: checks)
        }
        #expect(result.ids == Array(1...12))
        #expect(result.pages == 3)
    }
}
