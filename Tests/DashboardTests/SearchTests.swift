@testable import Dashboard
import Foundation
import HTTPServer
import HTTPServerTesting
import JSON
import RowstreamKit
import TestSupport
import Testing
import Upstream

/// A table's search box (`"search"`, docs/CONFIG.md; ``TableSearch``): the config's rules, the values refused
/// before anything reaches the upstream (its own request log says so), the stream, JSON proxy, export and no-script
/// page sending the text, and a cache per text that stays bounded however many texts are typed.
@Suite("Search, as the upstream sees it")
struct SearchTests {
    static let search = #", "search": {"parameter": "q", "maxLength": 10}"#

    /// 40 items `{"id": N, "name": "item N"}`, only those whose name contains `q` when given, pages of 5 from `offset`.
    static func answer(_ request: FixtureRequest) -> FixtureReply {
        let q = request.query["q"] ?? ""
        let all = (1...40).map { "item \($0)" }.filter { q.isEmpty || $0.contains(q) }
        let offset = Int(request.query["offset"] ?? "0") ?? 0
        let page = all.dropFirst(offset).prefix(5)
        let items = page.map { name in "{\"id\":\(name.dropFirst(5)),\"name\":\"\(name)\"}" }
        return .json("{\"items\":[\(items.joined(separator: ","))]}")
    }

    static func withSearchDashboard(_ body: (InProcessClient, FixtureServer) async throws -> Void) async throws {
        try await withInProcessDashboard(over: try FixtureServer(handler: Self.answer), config: {
            ConfigPromiseTests.config($0, table: Self.search + #", "controls": [{"parameter": "sort", "options": [{"value": ""}, {"value": "name"}]}]"#)
        }, file: "search.json", body)
    }

    /// The status and whole body of `target` (a stream's first `rows` event's data for an event stream).
    static func get(_ client: InProcessClient, _ target: String) async throws -> (status: Int, body: String) {
        let response = await client.get(target)
        guard let stream = response.stream else { return (Int(response.status.code), response.text) }
        defer { stream.close() }
        if target.contains("/stream") { return (Int(response.status.code), try await stream.next(named: "rows").event.data) }
        return (Int(response.status.code), String(decoding: try await stream.readToEnd(timeout: .seconds(60)), as: UTF8.self))
    }

    @Test(arguments: [
        (#", "search": {"parameter": "sort"}, "controls": [{"parameter": "sort", "options": [{"value": ""}]}]"#,
         "test.json: tables[0].search.parameter: a query parameter no control uses"),
        (#", "search": {"parameter": "q", "maxLength": 0}"#, "test.json: tables[0].search.maxLength: a whole number in 1...200"),
        (#", "search": {"parameter": "q", "maxLength": 201}"#, "test.json: tables[0].search.maxLength: a whole number in 1...200"),
        (#", "search": {"parameter": "q&x"}"#, "test.json: tables[0].search.parameter: a query parameter name"),
        (#", "search": {"maxLength": 10}"#, "test.json: tables[0].search.parameter: a query parameter name"),
        (#", "search": {"parameter": "q", "max": 10}"#, "test.json: tables[0].search.max: unknown key"),
        (#", "search": "q""#, "test.json: tables[0].search: "),
    ])
    func configRulesNameTheKey(extra: String, prefix: String) {
        let error = #expect(throws: ConfigError.self) { try ConfigFileTests.parse(ConfigFileTests.table(extra: extra)) }
        #expect(error?.description.hasPrefix(prefix) == true, "\(error?.description ?? "no error")")
    }

    @Test func aValidSearchDefaultsItsLengthAndLabel() throws {
        let plain = try ConfigFileTests.parse(ConfigFileTests.table(extra: #", "search": {"parameter": "q"}"#)).tables[0]
        #expect(plain.search == TableSearch(parameter: "q", maxLength: 100, label: "Search"))
        let full = try ConfigFileTests.parse(ConfigFileTests.table(extra: #", "search": {"parameter": "name[like]", "maxLength": 40, "label": "Find"}"#)).tables[0]
        #expect(full.search == TableSearch(parameter: "name[like]", maxLength: 40, label: "Find"))
    }

    /// Every route that takes a search refuses a value outside the rules with 400 and a message naming it, and
    /// the upstream gets no request at all.
    @Test(arguments: [
        ("p.q=12345678901", "q is longer than 10 characters"),
        ("p.q=%C3%A9%C3%A9%C3%A9%C3%A9%C3%A9%C3%A9%C3%A9%C3%A9%C3%A9%C3%A9%C3%A9", "q is longer than 10 characters"),
        ("p.q=a%00b", "q must not contain control characters"),
        ("p.q=a%0Ab", "q must not contain control characters"),
        ("p.q=%09a", "q must not contain control characters"),
        ("p.q=a%C2%85", "q must not contain control characters"),
        ("p.q=a%7F", "q must not contain control characters"),
        ("p.q=%FF%FE", "q must be percent-encoded UTF-8"),
        ("p.q=%E2%82", "q must be percent-encoded UTF-8"),
        ("p.q=%zz", "q must be percent-encoded UTF-8"),
        ("p.q=item&p.q=other", "q may be given only once"),
        ("p.q=&p.q=", "q may be given only once"),
    ])
    func valuesOutsideTheRulesAre400WithNoUpstreamRequest(query: String, message: String) async throws {
        try await Self.withSearchDashboard { client, upstream in
            for path in ["/tables/items/stream", "/api/tables/items/pages", "/tables/items/export.csv",
                         "/tables/items/export.ndjson", "/tables/items/html"] {
                let response = try await Self.get(client, path + "?" + query)
                #expect(response.status == 400, "\(path)?\(query)")
                #expect(response.body.contains(message), "\(path)?\(query): \(response.body)")
            }
            #expect(upstream.requests.isEmpty, "\(upstream.requests.map(\.target))")
        }
    }

    /// The stream, the JSON proxy (each of its pages), both exports and the no-script page (and its next link)
    /// send the text, trimmed and encoded; an empty or blank one sends no parameter.
    @Test func everyRouteSendsTheTextAndAnEmptyOneNothing() async throws {
        try await Self.withSearchDashboard { client, upstream in
            func sent(since count: Int) -> [String?] { upstream.requests.dropFirst(count).map { $0.query["q"] } }
            let rows = try await Self.get(client, "/tables/items/stream?p.q=%20item%201%20").body
            #expect(["item 1<", "item 10<", "item 11<", "item 12<"].allSatisfy(rows.contains) && !rows.contains("item 2<"))
            #expect(sent(since: 0) == ["item 1"])

            var count = upstream.requests.count
            let page = try JSONValue.parse(try await Self.get(client, "/api/tables/items/pages?p.q=item+1").body)
            #expect(page["items"]?.arrayValue?.map { $0["name"]?.stringValue } == ["item 1", "item 10", "item 11", "item 12", "item 13"])
            #expect(sent(since: count) == ["item 1"])

            count = upstream.requests.count
            let first = try JSONValue.parse(try await Self.get(client, "/api/tables/items/pages?p.q=item").body)
            let cursor = try #require(first["next"]?.stringValue)
            let encoded = cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let second = try await Self.get(client, "/api/tables/items/pages?p.q=item&cursor=\(encoded)")
            #expect(second.status == 200 && sent(since: count) == ["item", "item"])
            let foreign = try await Self.get(client, "/api/tables/items/pages?p.q=other&cursor=\(encoded)")
            #expect(foreign.status == 400, "a cursor of one search is no cursor of another")

            count = upstream.requests.count
            let csv = try await Self.get(client, "/tables/items/export.csv?p.q=item%201&p.sort=name")
            #expect(csv.body.contains("item 12") && !csv.body.contains("item 2\r\n") && !csv.body.contains("item 2\n"))
            #expect(sent(since: count) == ["item 1", "item 1", "item 1"], "every page of the export")
            #expect(upstream.requests.last?.query["sort"] == "name", "the controls' choice rides along")

            count = upstream.requests.count
            let html = try await Self.get(client, "/tables/items/html?p.q=item")
            #expect(html.body.contains("<form class=\"rs-controls\" method=\"get\" action=\"/tables/items/html\">"))
            #expect(html.body.contains("<div class=\"rs-search\" role=\"search\"><label class=\"rs-control\">Search <input type=\"search\" name=\"p.q\" maxlength=\"10\""))
            #expect(html.body.contains("value=\"item\""))
            #expect(sent(since: count).allSatisfy { $0 == "item" } && upstream.requests.count > count)

            count = upstream.requests.count
            for empty in ["p.q=", "p.q=+++", ""] {
                _ = try await Self.get(client, "/tables/items/stream?" + empty)
            }
            #expect(sent(since: count) == [nil, nil, nil], "empty: no parameter")
        }
    }

    @Test func theNoScriptNextLinkKeepsTheSearchAndTheTextIsEscaped() async throws {
        try await Self.withSearchDashboard { client, _ in
            let html = try await Self.get(client, "/tables/items/html?p.q=%3C%22x")
            #expect(html.body.contains("value=\"&lt;&quot;x\"") && !html.body.contains("<\"x"))
            let all = try await Self.get(client, "/tables/items/html?p.q=item")
            let next = try #require(all.body.range(of: "rel=\"next\" href=\""))
            let href = all.body[next.upperBound...].prefix { $0 != "\"" }
            #expect(href.hasPrefix("/tables/items/html?after=") && href.hasSuffix("&amp;p.q=item"), "\(href)")
        }
    }

    /// A viewer typing 1,000 different texts: each text is a choice of its own (its own cache), and the choices kept
    /// stay at the bound (64), the least recently used going first; a text used again in between is still served
    /// from its cache.
    @Test func eachTextHasItsOwnCacheAndTheirNumberIsBounded() throws {
        let client = try UpstreamClient()
        defer { client.shutdown() }
        let source = PageSource<JSONValue>(client: client, template: PageRequestTemplate(url: "http://127.0.0.1:9/v1/rows"),
                                           itemsPath: try JSONPath("results"), style: .offset(parameter: "offset", end: .shortPage),
                                           cache: PageCache<JSONValue>(ttl: .seconds(60), prefetch: false))
        let caches = QueryCaches(source: source)
        let kept = caches.source(for: [("q", "kept")])
        #expect(kept.cache !== source.cache && kept.template.query.map { "\($0.name)=\($0.value)" } == ["q=kept"])
        let other = caches.source(for: [("q", "other")])
        #expect(other.cache !== kept.cache, "a cache per text")
        for index in 0..<1_000 {
            _ = caches.source(for: [("q", "text \(index)")])
            if index % 32 == 0 { #expect(caches.source(for: [("q", "kept")]).cache === kept.cache) }
            #expect(caches.count <= 64)
        }
        #expect(caches.count == 64)
        #expect(caches.source(for: [("q", "kept")]).cache === kept.cache, "used recently: kept")
        #expect(caches.source(for: [("q", "other")]).cache !== other.cache, "not used since: gone")
        #expect(caches.source(for: [("q", "text 0")]).template.query.map(\.value) == ["text 0"])
    }

    /// A search text is free text: each one's cache keeps at most `QueryCaches.searchPageCapacity` pages (not the
    /// table's 256), so one viewer typing texts holds 64 small caches. A control's choice keeps the table's capacity.
    @Test func aSearchTextsCacheIsSmallAndAControlsChoiceKeepsTheTablesCapacity() throws {
        let client = try UpstreamClient()
        defer { client.shutdown() }
        let cache = PageCache<JSONValue>(ttl: .seconds(60), prefetch: true)
        let source = PageSource<JSONValue>(client: client, template: PageRequestTemplate(url: "http://127.0.0.1:9/v1/rows"),
                                           itemsPath: try JSONPath("results"), style: .offset(parameter: "offset", end: .shortPage),
                                           cache: cache)
        let caches = QueryCaches(source: source, searchParameter: "q")
        let searched = try #require(caches.source(for: [("sort", "name"), ("q", "ada")]).cache)
        #expect(searched.capacity == QueryCaches<JSONValue>.searchPageCapacity && searched.capacity == 16)
        #expect(searched.ttl == cache.ttl && searched.prefetch)
        #expect(caches.source(for: [("sort", "name")]).cache?.capacity == cache.capacity, "a control's choice")
        #expect(QueryCaches(source: source).source(for: [("q", "ada")]).cache?.capacity == cache.capacity, "no search")
    }
}
