import Testing
@testable import HTTPServer

/// `FormPairs` walks a query in place and gives what splitting it into arrays gave.
@Suite struct FormPairsTests {
    /// The rule before `FormPairs`: split on `&`, then once on `=`, decode the name and compare, decode the value.
    private func splitValues(_ name: String, in query: String) -> [String?] {
        var values: [String?] = []
        for pair in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard PercentDecoding.decode(Substring(parts[0]), plusAsSpace: true) == name else { continue }
            values.append(parts.count > 1 ? PercentDecoding.decode(Substring(parts[1]), plusAsSpace: true) : "")
        }
        return values
    }

    private func request(query: String) -> HTTPRequest { HTTPRequest(method: .get, target: "/t?" + query) }

    @Test(arguments: [
        ("cells=bare", "cells", ["bare"]),
        ("a=1&cells=bare&cells=classed", "cells", ["bare", "classed"]),
        ("cells", "cells", [""]),
        ("cells=", "cells", [""]),
        ("&&cells=a%20b&&", "cells", ["a b"]),
        ("c%65lls=x&ce+lls=y", "cells", ["x"]),
        ("ce+lls=y", "ce lls", ["y"]),
        ("p.q=caf%C3%A9+au+lait", "p.q", ["café au lait"]),
        ("p.q=%E2%82", "p.q", [nil]),
        ("p.q=%zz&p.q=ok", "p.q", [nil, "ok"]),
        ("%zz=1&p.q=2", "p.q", ["2"]),
        ("x=a=b", "x", ["a=b"]),
        ("=v&x=1", "", ["v"]),
        ("cellsx=1&xcells=2&cell=3", "cells", []),
    ] as [(String, String, [String?])])
    func valuesAreTheSplitRulesValues(query: String, name: String, expected: [String?]) {
        #expect(request(query: query).queryValues(name) == expected)
        #expect(splitValues(name, in: query) == expected)
        #expect(request(query: query).queryValue(name) == expected.first ?? nil)
    }

    @Test func randomQueriesMatchTheSplitRule() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ab=&%+2e0FzC3A9.".utf8) + [0xC3, 0xA9]
        let names = ["a", "b", "ab", "a b", "", "é", "b=a"]
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...24, using: &generator)
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            let query = String(decoding: bytes, as: UTF8.self)
            for name in names {
                let expected = splitValues(name, in: query)
                #expect(request(query: query).queryValues(name) == expected, "\(query) \(name)")
                #expect(request(query: query).queryValue(name) == expected.first ?? nil, "\(query) \(name)")
                #expect(HTTPRequest(method: .post, target: "/f", body: Array(query.utf8)).formValue(name)
                    == expected.first ?? nil, "\(query) \(name)")
            }
        }
    }

    @Test func aBodyThatIsNotUTF8IsMalformedNotRepaired() {
        let body: [UInt8] = Array("name=".utf8) + [0xFF, 0x41]
        #expect(HTTPRequest(method: .post, target: "/f", body: body).formValue("name") == nil)
        #expect(HTTPRequest(method: .post, target: "/f", body: Array("name=ok".utf8)).formValue("name") == "ok")
    }
}
