import JSON
import Testing
@testable import Upstream

/// Cursor pagination over a fixture API.
@Suite struct PageSourceTests {
    /// A fixture API over `pages`: page i is served for cursor "c<i>" (page 0 for no cursor) and names
    /// "c<i+1>" as next, except the last, which names `lastNext`.
    static func api(pages: [[Int]], lastNext: String = "null") -> @Sendable (FixtureRequest) -> FixtureReply {
        { request in
            guard request.header("authorization") == "Bearer T" else { return .json("{}", status: 401) }
            let index = request.query["cursor"].flatMap { Int($0.dropFirst()) } ?? 0
            guard pages.indices.contains(index) else { return .json("{}", status: 404) }
            let next = index == pages.count - 1 ? lastNext : "\"c\(index + 1)\""
            let items = pages[index].map { "{\"id\":\($0)}" }.joined(separator: ",")
            return .json("{\"data\":{\"items\":[\(items)]},\"next_cursor\":\(next)}")
        }
    }

    static func source(_ server: InProcessUpstream, path: String = "/api?sort=id") throws -> PageSource<JSONValue> {
        var template = PageRequestTemplate(url: server.baseURL + path, headers: [("Authorization", "Bearer T")])
        template.pageSize = 3
        return PageSource<JSONValue>(client: server, template: template, itemsPath: try JSONPath("data.items"),
                          style: .cursor(parameter: "cursor", nextCursorPath: try JSONPath("next_cursor")))
    }

    static func walk(_ source: PageSource<JSONValue>, limit: Int = 20) async throws -> (ids: [JSONValue], pages: Int) {
        var ids: [JSONValue] = []
        var cursor: String?
        for pageCount in 1...limit {
            let page = try await source.fetchPage(cursor: cursor)
            ids += page.items.compactMap { $0["id"] }
            guard let next = page.nextCursor else { return (ids, pageCount) }
            cursor = next
        }
        Issue.record("the walk did not end")
        return (ids, limit)
    }

    @Test func cursorWalkReachesTheEnd() async throws {
        let server = InProcessUpstream(handler: Self.api(pages: [[1, 2, 3], [4, 5, 6], [7]]))
        defer { server.stop() }

        let (ids, pages) = try await Self.walk(try Self.source(server))

        #expect(ids == (1...7).map { JSONValue.int(Int64($0)) })
        #expect(pages == 3)
        #expect(server.requests.map(\.query) == [
            ["sort": "id", "limit": "3"],
            ["sort": "id", "limit": "3", "cursor": "c1"],
            ["sort": "id", "limit": "3", "cursor": "c2"],
        ])
    }

    @Test func anEmptyPageWithACursorIsNotTheEnd() async throws {
        let server = InProcessUpstream(handler: Self.api(pages: [[1], [], [], [2]], lastNext: "\"\""))
        defer { server.stop() }

        let (ids, pages) = try await Self.walk(try Self.source(server))

        #expect(ids == [.int(1), .int(2)])
        #expect(pages == 4)
    }

    @Test func cursorsArePercentEncoded() async throws {
        let server = InProcessUpstream { _ in .json("{\"data\":{\"items\":[]},\"next_cursor\":null}") }
        defer { server.stop() }

        let page = try await Self.source(server).fetchPage(cursor: "a b/c+d=é&x")

        #expect(page.nextCursor == nil)
        #expect(server.requests.first?.rawQuery == "sort=id&limit=3&cursor=a%20b%2Fc%2Bd%3D%C3%A9%26x")
    }

    @Test func aCursorThatDoesNotAdvanceIsAnError() async throws {
        let server = InProcessUpstream { _ in .json("{\"data\":{\"items\":[{\"id\":1}]},\"next_cursor\":\"same\"}") }
        defer { server.stop() }
        let source = try Self.source(server)

        #expect(try await source.fetchPage(cursor: nil).nextCursor == "same")
        await #expect(throws: UpstreamError.invalidPage("the next cursor repeats the current one (a loop)")) {
            try await source.fetchPage(cursor: "same")
        }
    }

    @Test(arguments: [
        ("not json at all", "the body is not JSON (application/json)"),
        ("{\"data\":{\"items\":{\"id\":1}}}", "no items array at 'data.items'"),
        ("{\"other\":[]}", "no items array at 'data.items'"),
        ("{\"data\":{\"items\":[]},\"next_cursor\":[1]}", "the next cursor at 'next_cursor' is not a string or an integer"),
    ])
    func malformedPagesAreInvalid(body: String, why: String) async throws {
        let server = InProcessUpstream { _ in .json(body) }
        defer { server.stop() }

        await #expect(throws: UpstreamError.invalidPage(why)) {
            try await Self.source(server).fetchPage(cursor: nil)
        }
    }

    @Test func non2xxBecomesAnHTTPStatusError() async throws {
        let server = InProcessUpstream { _ in .json("{\"data\":{\"items\":[]}}", status: 503) }
        defer { server.stop() }

        let error = await #expect(throws: UpstreamError.self) { try await Self.source(server).fetchPage(cursor: nil) }
        #expect(error == .httpStatus(503))
        #expect(error?.isRetryable == true)
    }

    @Test func noLimitParameterWhenTheTemplateHasNone() async throws {
        let server = InProcessUpstream { _ in .json("{\"data\":{\"items\":[]}}") }
        defer { server.stop() }
        var template = PageRequestTemplate(url: server.baseURL + "/api")
        template.limitParameter = nil
        let source = PageSource<JSONValue>(client: server, template: template, itemsPath: try JSONPath("data.items"),
                                style: .cursor(parameter: "after", nextCursorPath: try JSONPath("next")))

        let page = try await source.fetchPage(cursor: "k")

        #expect(page.items.isEmpty)
        #expect(server.requests.first?.target == "/api?after=k")
    }
}
