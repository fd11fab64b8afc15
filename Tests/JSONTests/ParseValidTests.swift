import Testing
@testable import JSON

@Suite struct ParseValidTests {
    @Test(arguments: [
        ("null", JSONValue.null),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("0", .int(0)),
        ("-0", .int(0)),
        ("-0.0", .double(-0.0)),
        ("42", .int(42)),
        ("-17", .int(-17)),
        ("9223372036854775807", .int(Int64.max)),
        ("-9223372036854775808", .int(Int64.min)),
        ("9223372036854775808", .bigInteger("9223372036854775808")),
        ("-9223372036854775809", .bigInteger("-9223372036854775809")),
        ("123456789012345678901234567890", .bigInteger("123456789012345678901234567890")),
        ("1.2345678901234567890e29", .double(1.2345678901234568e29)),
        ("1.5", .double(1.5)),
        ("1e3", .double(1000)),
        ("1E+3", .double(1000)),
        ("2.5e-3", .double(0.0025)),
        ("\"\"", .string("")),
        ("\"plain\"", .string("plain")),
        ("  \t\r\n [ ] \n", .array([])),
        ("{}", .object([:])),
    ])
    func scalarsAndEmpties(text: String, expected: JSONValue) throws {
        #expect(try JSONValue.parse(text) == expected)
    }

    @Test func escapes() throws {
        let text = #""a\"b\\c\/d\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00""#
        #expect(try JSONValue.parse(text) == .string("a\"b\\c/d\u{8}\u{c}\n\r\tAé€😀"))
    }

    @Test func rawUTF8IsKept() throws {
        #expect(try JSONValue.parse("\"héllo €𝄞 日本\"") == .string("héllo €𝄞 日本"))
    }

    @Test func nestedDocument() throws {
        let text = #"{"a": [1, 2.5, {"b": null}], "c": {"d": "e"}, "f": true}"#
        let expected: JSONValue = ["a": [1, 2.5, ["b": nil]], "c": ["d": "e"], "f": true]
        #expect(try JSONValue.parse(text) == expected)
    }

    @Test func duplicateKeysLastWins() throws {
        #expect(try JSONValue.parse(#"{"a":1,"a":2}"#) == ["a": 2])
    }

    @Test func depthUpToLimitIsAccepted() throws {
        let text = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        var value = try JSONValue.parse(text)
        var depth = 0
        while case .array(let inner) = value {
            depth += 1
            value = inner.first ?? .null
        }
        #expect(depth == 64)
    }

    @Test func accessors() throws {
        let value = try JSONValue.parse(#"{"s":"x","i":3,"d":4.0,"f":4.5,"b":false,"a":[1],"o":{}}"#)
        #expect(value["s"]?.stringValue == "x")
        #expect(value["i"]?.intValue == 3)
        #expect(value["d"]?.intValue == 4)
        #expect(value["f"]?.intValue == nil)
        #expect(value["f"]?.doubleValue == 4.5)
        #expect(value["i"]?.doubleValue == 3.0)
        #expect(value["b"]?.boolValue == false)
        #expect(value["a"]?[0] == .int(1))
        #expect(value["a"]?[1] == nil)
        #expect(value["a"]?[-1] == nil)
        #expect(value["o"]?.objectValue == [:])
        #expect(value["missing"] == nil)
        #expect(value[0] == nil)
        #expect(value["s"]?["x"] == nil)
    }
}
