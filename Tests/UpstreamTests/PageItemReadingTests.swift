import JSON
import Synchronization
import Testing
@testable import Upstream

/// A page's items read by its source's ``ItemReader`` straight from their text in the body (issue 14: a config
/// table's row is read from the upstream's bytes, with no JSON item in between), and the texts the page keeps.
@Suite struct PageItemReadingTests {
    /// Calls of a reader.
    final class Calls: Sendable {
        let count = Atomic<Int>(0)
    }

    /// A reader that keeps each item's text as it was handed over, and counts its calls.
    static func textReader(_ calls: Calls? = nil) -> ItemReader<String> {
        ItemReader { text in
            calls?.count.add(1, ordering: .relaxed)
            return String(decoding: text, as: UTF8.self)
        }
    }

    static func source<Item>(_ server: InProcessUpstream, items: String = "data",
                             style: PaginationStyle? = nil, reader: ItemReader<Item>) throws -> PageSource<Item> {
        PageSource(client: server, template: PageRequestTemplate(url: server.baseURL + "/list"),
                   itemsPath: try JSONPath(items),
                   style: try style ?? .cursor(parameter: "cursor", nextCursorPath: try JSONPath("next")),
                   reader: reader)
    }

    /// The body's items, each spelled its own way (whitespace, escapes, key order): the reader gets those very bytes.
    static let body = """
        {"next": "c2", "data": [ {"id": 1, "name": "a\\u00e9"} ,{ "name" : "b", "id" : 2 }
        ,\t"three", [4, {"x": null}] ], "meta": {"data": [9]}}
        """

    @Test func eachItemIsReadFromItsOwnTextInTheBody() async throws {
        let server = InProcessUpstream { _ in .json(Self.body) }
        defer { server.stop() }
        let calls = Calls()

        let page = try await Self.source(server, reader: Self.textReader(calls)).fetchPage(cursor: nil)

        let expected = [#"{"id": 1, "name": "a\u00e9"}"#, #"{ "name" : "b", "id" : 2 }"#, #""three""#, #"[4, {"x": null}]"#]
        #expect(page.items == expected, "each item's bytes as the upstream wrote them")
        #expect(calls.count.load(ordering: .relaxed) == 4, "each item read once")
        #expect(page.nextCursor == "c2")
        #expect(page.texts.count == 4)
        #expect(page.texts.ranges.map { String(decoding: page.texts.bytes[$0], as: UTF8.self) } == expected)
        #expect(page.texts.values == [["id": 1, "name": "aé"], ["name": "b", "id": 2], "three", [4, ["x": nil]]])
        #expect(page.texts.value(at: try JSONPath("id"), in: 1) == 2)
    }

    @Test func itemsUnderEveryElementOfAnArray() async throws {
        let server = InProcessUpstream { _ in
            .json(#"{"edges": [{"cursor": "a", "node": {"id": 1}}, {"cursor": "b"}, {"node": {"id": 3}}], "next": null}"#)
        }
        defer { server.stop() }

        let page = try await Self.source(server, items: "edges[].node", reader: Self.textReader()).fetchPage(cursor: nil)

        #expect(page.items == [#"{"id": 1}"#, #"{"id": 3}"#])
        #expect(page.nextCursor == nil)
    }

    @Test func aReaderThatFailsMakesTheWholePageInvalid() async throws {
        let server = InProcessUpstream { _ in .json(#"{"data": [{"id": 1}, {"id": "two"}], "next": null}"#) }
        defer { server.stop() }
        let strict = ItemReader<Int64> { (text) throws(JSONError) in
            guard let id = try JSONValue.value(at: JSONPath("id"), in: text)?.intValue else {
                throw JSONError(.unexpectedCharacter, at: 0, expected: "an integer id")
            }
            return id
        }

        let source = try Self.source(server, reader: strict)
        do throws(UpstreamError) {
            _ = try await source.fetchPage(cursor: nil)
            Issue.record("a page with an item its reader refuses was returned")
        } catch {
            // The refused item named, counted from 1.
            #expect(error.description.hasPrefix("the upstream's page is not valid: item 2 cannot be read: "), "\(error)")
        }
    }

    @Test func aPathReadFromTheBodyMayGoIntoTheItems() async throws {
        // The next cursor is the last item's id: the body is parsed whole, and the items are still read by the reader.
        let server = InProcessUpstream { request in
            request.query["after"] == nil ? .json(#"{"data": [{"id": "p"}, {"id": "q"}]}"#) : .json(#"{"data": []}"#)
        }
        defer { server.stop() }
        let source = try Self.source(server, style: .cursor(parameter: "after", nextCursorPath: try JSONPath("data[-1].id")),
                                     reader: Self.textReader())
        #expect(source.parsesBodyWhole)

        let page = try await source.fetchPage(cursor: nil)

        #expect(page.items.map { try? JSONValue.parse($0) } == [["id": "p"], ["id": "q"]])
        #expect(page.nextCursor == "q")
        #expect(try await source.fetchPage(cursor: "q").nextCursor == nil)
    }

    @Test func aCheckAtWhatHoldsTheItemsReadsTheItemsThemselves() async throws {
        // `errorPath` at the object holding the items array: its message shows the items, as from the whole parse.
        let server = InProcessUpstream { _ in .json(#"{"data": {"list": [{"id": "p"}]}}"#) }
        defer { server.stop() }
        var checks = PageChecks()
        checks.errorPath = try JSONPath("data")
        let source = PageSource(client: server, template: PageRequestTemplate(url: server.baseURL + "/list"),
                                itemsPath: try JSONPath("data.list"),
                                style: .cursor(parameter: "cursor", nextCursorPath: try JSONPath("next")),
                                reader: Self.textReader(), checks: checks)
        #expect(source.parsesBodyWhole)
        await #expect(throws: UpstreamError.invalidPage(#"the upstream reported an error: {"list":[{"id":"p"}]}"#)) {
            try await source.fetchPage(cursor: nil)
        }
    }

    @Test func whichBodyPathsGoIntoTheItems() throws {
        func enters(_ items: String, _ path: String) throws -> Bool {
            PageSource<JSONValue>.enters(try JSONPath(items), try JSONPath(path))
        }
        #expect(try enters("data", "data[0].id"))
        #expect(try enters("data", "data[-1]"))
        #expect(try enters("data", "data[]"))
        #expect(try enters("data", "data"), "the array holds the items")
        #expect(try enters("data.list", "data"), "and so does what holds the array")
        #expect(try !enters("data", "meta.total"))
        #expect(try !enters("data", "datas[0]"))
        #expect(try enters("edges[].node", "edges[2].node.id"))
        #expect(try !enters("edges[].node", "edges[0].cursor"))
        #expect(try enters("edges[].node", "edges[0]"), "an edge holds its node")
        #expect(try !enters("", "next"), "a root array's items: the root has no members")
        #expect(try enters("", "[0]"))
    }
}

extension PageItemReadingTests {
    @Test func textsFillingLessThanHalfTheirBufferMoveToOneOfTheirOwn() {
        let body = Array(#"{"meta": "0123456789012345678901234567890123456789", "data": [1, "two"]}"#.utf8)
        let one = body.count - 10   // `1, "two"]}`
        let texts = ItemTexts(bytes: body, ranges: [one..<(one + 1), (one + 3)..<(one + 8)])
        let compact = texts.compacted()
        #expect(compact.bytes == Array(#"1"two""#.utf8))
        #expect(compact.values == [1, "two"])
        let full = ItemTexts(bytes: Array("[1,2]".utf8), ranges: [1..<2, 3..<4])
        #expect(full.compacted().bytes == full.bytes, "a buffer mostly items is kept as it is")
    }
}
