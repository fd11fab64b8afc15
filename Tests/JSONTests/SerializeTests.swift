import Testing
@testable import JSON

@Suite struct SerializeTests {
    static let samples: [JSONValue] = [
        nil, true, false, 0, -1, .int(Int64.min), .int(Int64.max), 1.5, -0.25, 1e300, .double(Double.leastNonzeroMagnitude), 0.1,
        "", "plain", "quote\" back\\ slash/", "\u{0}\u{1}\u{1f}\n\t", "é€😀", "<script>&</script>",
        "\u{2028}\u{2029}",
        [], [1, "two", [3.5, nil]], [:],
        ["b": 1, "a": ["c": [true, false]], "": "empty key", "<k>": "&"],
    ]

    @Test(arguments: samples)
    func roundTrip(value: JSONValue) throws {
        #expect(try JSONValue.parse(value.serialized()) == value)
        #expect(try JSONValue.parse(value.serialized(htmlSafe: true)) == value)
    }

    @Test(arguments: samples)
    func htmlSafeHasNoMarkupCharacters(value: JSONValue) {
        let bytes = value.serialized(htmlSafe: true)
        #expect(!bytes.contains(UInt8(ascii: "<")))
        #expect(!bytes.contains(UInt8(ascii: ">")))
        #expect(!bytes.contains(UInt8(ascii: "&")))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("\u{2028}") && !text.contains("\u{2029}"))
    }

    @Test func compactAndSortedKeys() {
        let value: JSONValue = ["b": 1, "a": [true, nil], "c": "x"]
        #expect(String(decoding: value.serialized(), as: UTF8.self) == #"{"a":[true,null],"b":1,"c":"x"}"#)
    }

    @Test func escapesControlCharacters() {
        let text = String(decoding: JSONValue.string("a\u{1}\n\"").serialized(), as: UTF8.self)
        #expect(text == #""a\u0001\n\"""#)
    }

    @Test func htmlSafeEscapes() {
        let text = String(decoding: JSONValue.string("</script>&\u{2028}").serialized(htmlSafe: true), as: UTF8.self)
        #expect(text == #""\u003c/script\u003e\u0026\u2028""#)
    }

    @Test func nonFiniteBecomesNull() {
        #expect(JSONValue.double(.infinity).serialized() == Array("null".utf8))
        #expect(JSONValue.double(.nan).serialized() == Array("null".utf8))
    }

    @Test func serializeAppends() {
        var buffer = Array("x=".utf8)
        JSONValue.array([1, 2]).serialize(into: &buffer)
        #expect(buffer == Array("x=[1,2]".utf8))
    }

    @Test func displayText() {
        #expect(JSONValue.null.displayText == nil)
        #expect(JSONValue.string("a<b").displayText == "a<b")
        #expect(JSONValue.int(-42).displayText == "-42")
        #expect(JSONValue.double(3.0).displayText == "3")
        #expect(JSONValue.double(0.1).displayText == "0.1")
        #expect(JSONValue.double(2.5).displayText == "2.5")
        #expect(JSONValue.bool(true).displayText == "true")
        #expect(JSONValue.array([1, "a"]).displayText == #"[1,"a"]"#)
        #expect(JSONValue.object(["k": nil]).displayText == #"{"k":null}"#)
        if let big = JSONValue.double(1e300).displayText {
            #expect(Double(big) == 1e300)
        } else {
            Issue.record("missing text")
        }
    }
}
