import JSON
import Testing
@testable import Upstream

/// Redirects and next links are followed only within the configured upstream origin.
@Suite struct OriginRulesTests {
    /// The in-process upstream, given `other`: the base URL of another host. A request that reached it would show
    /// in the log with its host (`Other.contacted`).
    private func withServers(_ handler: @escaping @Sendable (FixtureRequest, String) -> FixtureReply,
                             _ body: (InProcessUpstream, Other) async throws -> Void) async throws {
        let other = Other()
        let server = InProcessUpstream { request in handler(request, other.baseURL) }
        defer { server.stop() }
        try await body(server, other)
    }

    /// Another host, which no request may reach.
    struct Other {
        let baseURL = "http://other.test"
        func contacted(_ server: InProcessUpstream) -> Bool { server.requests.contains { $0.header("host") == "other.test" } }
    }

    private func source(_ server: InProcessUpstream, _ style: PaginationStyle) throws -> PageSource<JSONValue> {
        PageSource<JSONValue>(client: server, template: PageRequestTemplate(url: server.baseURL + "/items"),
                   itemsPath: try JSONPath("data"), style: style)
    }

    @Test func aRedirectToAnotherHostIsRefused() async throws {
        try await withServers({ _, other in .redirect(to: other + "/steal") }) { server, other in
            await #expect(throws: UpstreamError.offOrigin) {
                try await source(server, .linkHeader).fetchPage(cursor: nil)
            }
            #expect(!other.contacted(server), "the other host was never contacted")
        }
    }

    @Test func aRedirectWithinTheOriginIsFollowed() async throws {
        try await withServers({ request, _ in
            request.path == "/items" ? .redirect(to: "/v2/items") : .json("{\"data\":[{\"id\":1}]}")
        }) { server, _ in
            let page = try await source(server, .linkHeader).fetchPage(cursor: nil)
            #expect(page.items == [["id": 1]])
            #expect(server.requests.map(\.path) == ["/items", "/v2/items"])
        }
    }

    /// The page's own items come back; its next link to another host becomes a cursor whose fetch fails before
    /// anything is sent (issue 12, item 2: the good rows are shown, the following batch fails).
    @Test func aNextLinkInTheBodyToAnotherHostIsNeverFollowed() async throws {
        try await withServers({ _, other in
            .json("{\"data\":[{\"id\":1},{\"id\":2}],\"next\":\"\(other)/items?page=2\"}")
        }) { server, other in
            let source = try source(server, .nextURL(path: try JSONPath("next")))
            let page = try await source.fetchPage(cursor: nil)
            #expect(page.items == [["id": 1], ["id": 2]])
            let next = try #require(page.nextCursor)
            await #expect(throws: UpstreamError.offOrigin) { try await source.fetchPage(cursor: next) }
            #expect(!other.contacted(server))
            #expect(server.requests.count == 1)
        }
    }

    @Test func aLinkHeaderToAnotherHostIsNeverFollowed() async throws {
        try await withServers({ _, other in
            .respond(status: 200, headers: [("Link", "<\(other)/items?page=2>; rel=\"next\"")],
                     body: Array("{\"data\":[{\"id\":1}]}".utf8))
        }) { server, other in
            let source = try source(server, .linkHeader)
            let page = try await source.fetchPage(cursor: nil)
            #expect(page.items == [["id": 1]])
            let next = try #require(page.nextCursor)
            await #expect(throws: UpstreamError.offOrigin) { try await source.fetchPage(cursor: next) }
            #expect(!other.contacted(server))
            #expect(server.requests.count == 1)
        }
    }

    @Test func aForeignURLCursorIsNeverRequested() async throws {
        try await withServers({ _, _ in .json("{\"data\":[]}") }) { server, other in
            await #expect(throws: UpstreamError.offOrigin) {
                try await source(server, .linkHeader).fetchPage(cursor: other.baseURL + "/items")
            }
            #expect(server.requests.isEmpty)
        }
    }

    @Test func originsCompareSchemeHostAndPort() throws {
        let origin = try #require(UpstreamOrigin(url: "https://API.example.com/v1?x=1"))
        #expect(origin.contains("https://api.example.com:443/v2"))
        #expect(!origin.contains("http://api.example.com/v1"))
        #expect(!origin.contains("https://api.example.com:8443/v1"))
        #expect(!origin.contains("https://api.example.com.evil.net/v1"))
        #expect(!origin.contains("https://user@api.example.com/v1"))
        #expect(!origin.contains("/relative"))
        #expect(UpstreamOrigin(url: "file:///etc/passwd") == nil)
    }

    @Test func linkHeadersAreParsed() {
        let header = #"<https://a.example/x?page=3>; rel="last", <https://a.example/x?page=2>; rel="next""#
        #expect(LinkHeader.target(header, relation: "next") == "https://a.example/x?page=2")
        #expect(LinkHeader.target(#"<https://a.example/y>; rel="prev next""#, relation: "next") == "https://a.example/y")
        #expect(LinkHeader.target(#"<https://a.example/y>; rel="prev""#, relation: "next") == nil)
    }
}
