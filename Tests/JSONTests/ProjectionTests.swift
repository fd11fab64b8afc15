import Testing
import JSON

/// `JSONValue.projected(onto:)`: only what the paths read survives.
@Suite struct ProjectionTests {
    static let item: JSONValue = [
        "id": 7, "name": "x", "email": "a@example.com",
        "owner": ["name": "o", "phone": "555"],
        "tags": ["t0", "t1", "t2"],
        "edges": [["node": ["n": 1, "secret": 2]], ["node": ["n": 3, "secret": 4]]],
    ]

    private func project(_ paths: [String]) throws -> JSONValue {
        Self.item.projected(onto: try paths.map { try JSONPath($0) })
    }

    @Test func keepsOnlyNamedMembers() throws {
        #expect(try project(["id", "owner.name"]) == ["id": 7, "owner": ["name": "o"]])
        #expect(try project(["owner"]) == ["owner": ["name": "o", "phone": "555"]])
        #expect(try project(["missing", "owner.missing"]) == .object([:]))
    }

    @Test func arraysKeepTheirLengthWithNullsForUnreadElements() throws {
        #expect(try project(["tags[1]"]) == ["tags": [.null, "t1", .null]])
        #expect(try project(["tags[-1]", "tags[0]"]) == ["tags": ["t0", .null, "t2"]])
        #expect(try project(["edges[].node.n"]) == ["edges": [["node": ["n": 1]], ["node": ["n": 3]]]])
        #expect(try project(["tags[5]"]) == .object([:]))
    }

    @Test func theRootPathKeepsEverything() throws {
        #expect(Self.item.projected(onto: [.root]) == Self.item)
        #expect(JSONValue.string("plain").projected(onto: [.root]) == "plain")
        #expect(JSONValue.string("plain").projected(onto: [try JSONPath("id")]) == .object([:]))
    }
}
