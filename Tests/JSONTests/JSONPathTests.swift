import Testing
@testable import JSON

@Suite struct JSONPathTests {
    static let document: JSONValue = [
        "a": ["b": 1, "list": [10, 20, 30]],
        "items": [["id": 1], ["id": 2]],
        "edges": [["node": ["name": "x"]], ["node": ["name": "y"]], ["other": 1]],
        "@odata.nextLink": "https://example.test/next",
        "_links": ["next": ["href": "/page/2"]],
        "odd \"key\"": true,
    ]

    @Test(arguments: [
        ("a.b", JSONValue.int(1)),
        ("$.a.b", .int(1)),
        ("a.list[0]", .int(10)),
        ("a.list[-1]", .int(30)),
        ("items[1].id", .int(2)),
        ("edges[].node.name", .string("x")),
        (#"["@odata.nextLink"]"#, .string("https://example.test/next")),
        ("['@odata.nextLink']", .string("https://example.test/next")),
        ("_links.next.href", .string("/page/2")),
        (#"["odd \"key\""]"#, .bool(true)),
        ("a[\"b\"]", .int(1)),
    ])
    func evaluatesFirstMatch(path: String, expected: JSONValue) throws {
        #expect(try JSONPath(path).evaluate(Self.document) == expected)
    }

    @Test func rootPaths() throws {
        #expect(try JSONPath("").evaluate(Self.document) == Self.document)
        #expect(try JSONPath("$").evaluate(Self.document) == Self.document)
        #expect(try JSONPath("").components.isEmpty)
    }

    @Test func absentIsNil() throws {
        for path in ["nope", "a.nope", "a.list[3]", "a.b.c", "a[0]", "items.id", "edges[].missing"] {
            let found = try JSONPath(path).evaluate(Self.document)
            #expect(found == nil, "\(path) -> \(String(describing: found))")
        }
    }

    @Test func evaluateAllFlattens() throws {
        #expect(try JSONPath("edges[].node").evaluateAll(Self.document) == [["name": "x"], ["name": "y"]])
        #expect(try JSONPath("items[].id").evaluateAll(Self.document) == [1, 2])
        #expect(try JSONPath("a.list[]").evaluateAll(Self.document) == [10, 20, 30])
        #expect(try JSONPath("a.b[]").evaluateAll(Self.document) == [])
        #expect(try JSONPath("a.b").evaluateAll(Self.document) == [1])
        let nested: JSONValue = [[1, 2], [3]]
        #expect(try JSONPath("[][]").evaluateAll(nested) == [1, 2, 3])
    }

    @Test(arguments: ["a..b", ".a", "a.", "a[", "a[x]", "a[1", "a]", "[\"open", "a b", "$.", "a[\"k\"]b"])
    func syntaxErrorsNameThePosition(path: String) {
        do {
            _ = try JSONPath(path)
            Issue.record("expected an error for \(path)")
        } catch {
            #expect(error.kind == .invalidPath)
            #expect(error.offset >= 0 && error.offset <= path.count)
        }
    }

    @Test(arguments: ["a.b", "a[0].b", "edges[].node", #"["@odata.nextLink"]"#, "_links.next.href",
                      #"["odd \"key\""]"#, "", "[-1]", #"a[""]"#])
    func descriptionRoundTrips(path: String) throws {
        let parsed = try JSONPath(path)
        #expect(try JSONPath(parsed.description) == parsed)
    }
}
