import Testing
@testable import JSON

/// Reading a document's items as byte ranges (`parse(buffer:maxDepth:itemsAt:)`) and an item's members without
/// building the rest (`members(named:in:)`, `value(at:in:)`): the same selection, acceptance and errors as the full
/// parse with `evaluateAll` / `evaluate`.
@Suite struct ItemReadingTests {
    /// The text of each item `path` selects in `text`, after checking everything against the full parse.
    static func items(_ text: String, _ path: String, maxDepth: Int = 64) throws -> [String] {
        let bytes = Array(text.utf8)
        let path = try JSONPath(path)
        let problems = ItemsCheck.problems(bytes, path: path, names: ["a", "b", "a"], maxDepth: maxDepth)
        #expect(problems == [], "\(text) at \(path)")
        let document = try bytes.withUnsafeBufferPointer { buffer in
            try JSONValue.parse(buffer: buffer, maxDepth: maxDepth, itemsAt: path).get()
        }
        return document.items.map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    /// The error of the full parse of `text`, after checking the other readers fail with exactly it.
    static func error(_ text: String, _ path: String, maxDepth: Int = 64) throws -> JSONError.Kind? {
        let bytes = Array(text.utf8)
        #expect(ItemsCheck.problems(bytes, path: try JSONPath(path), names: ["a"], maxDepth: maxDepth) == [])
        do {
            _ = try JSONValue.parse(bytes, maxDepth: maxDepth)
            return nil
        } catch {
            return error.kind
        }
    }

    @Test func itemsAreTheExactBytesOfEachElementWithoutTheWhitespaceAround() throws {
        #expect(try Self.items("{\"items\": [ 1 ,\"two\",{\"a\" : [3]} ,\tnull ] }", "items[]")
            == ["1", #""two""#, #"{"a" : [3]}"#, "null"])
        #expect(try Self.items(" \n[ 1 , \"\\u00e9\" ]\r\n", "[]") == ["1", #""\u00e9""#])
        #expect(try Self.items("  {\"a\":1}  ", "") == [#"{"a":1}"#], "the root path: the whole value is the item")
    }

    @Test func theLastOfDuplicateKeysWinsSoItemsOfAnEarlierOneAreNotItems() throws {
        #expect(try Self.items(#"{"items":[1,2],"x":0,"items":[3]}"#, "items[]") == ["3"])
        #expect(try Self.items(#"{"items":[3],"items":{"a":1}}"#, "items[]") == [])
        #expect(try Self.items(#"{"d":{"items":[1]},"d":{"items":[2,4]}}"#, "d.items[]") == ["2", "4"])
        #expect(try Self.items(#"{"\u0061":[1],"a":[2]}"#, "a[]") == ["2"], "an escaped key is the same key")
    }

    @Test func indexesSelectAsEvaluateAllDoes() throws {
        let text = #"{"items":[1, {"a":2} ,[3]]}"#
        #expect(try Self.items(text, "items[-1]") == ["[3]"])
        #expect(try Self.items(text, "items[1]") == [#"{"a":2}"#])
        #expect(try Self.items(text, "items[3]") == [])
        #expect(try Self.items(text, "items[-4]") == [])
        #expect(try Self.items(text, "items[1].a") == ["2"])
        #expect(try Self.items(#"[[1,2],[3],[]]"#, "[][0]") == ["1", "3"])
    }

    @Test func connectionEdgesSelectEachNode() throws {
        let text = #"{"data":{"edges":[{"cursor":"x","node":{"id":1}},{"node":[2]},{"cursor":"z"},{"node":null}]}}"#
        #expect(try Self.items(text, "data.edges[].node") == [#"{"id":1}"#, "[2]", "null"])
    }

    @Test func noItemsWhenThePathMissesOrMeetsTheWrongKind() throws {
        #expect(try Self.items(#"{"items":{"a":1}}"#, "items[]") == [], "not an array")
        #expect(try Self.items(#"{"other":[1]}"#, "items[]") == [], "missing")
        #expect(try Self.items(#"[{"items":[1]}]"#, "items[]") == [], "a key on an array")
        #expect(try Self.items(#"{"0":[1]}"#, "[0]") == [], "an index on an object")
        #expect(try Self.items(#""items""#, "items[]") == [])
        #expect(try Self.items(#"[1,"s",null,[]]"#, "[]") == ["1", #""s""#, "null", "[]"], "items need not be objects")
    }

    @Test func theDepthLimitCountsAnItemsNestingFromWhereItIs() throws {
        // The object is depth 1, the array 2, the item 3, its array 4.
        #expect(try Self.items(#"{"items":[[[1]]]}"#, "items[]", maxDepth: 4) == ["[[1]]"])
        #expect(try Self.error(#"{"items":[[[1]]]}"#, "items[]", maxDepth: 3) == .tooDeep)
        #expect(try Self.error(#"{"items":[{"a":{}}]}"#, "items[]", maxDepth: 3) == .tooDeep)
        #expect(try Self.items(#"{"items":[{"a":{}}]}"#, "items[]", maxDepth: 4) == [#"{"a":{}}"#])
        // Objects and arrays alternating 300 deep inside an item (and inside a member `members` skips).
        let deep = #"{"items":["# + String(repeating: #"[{"a":"#, count: 150) + "1" + String(repeating: "}]", count: 150) + "]}"
        #expect(try Self.items(deep, "items[]", maxDepth: 302).count == 1)
        #expect(try Self.error(deep, "items[]", maxDepth: 301) == .tooDeep)
    }

    @Test(arguments: [
        (#"{"items":[{"a":"\x"}]}"#, JSONError.Kind.invalidEscape),
        (#"{"items":[01]}"#, .invalidNumber),
        (#"{"items":[1e999]}"#, .numberOutOfRange),
        (#"{"items":["\ud800"]}"#, .unpairedSurrogate),
        ("{\"items\":[\"a\tb\"]}", .controlCharacterInString),
        (#"{"items":[{"a" 1}]}"#, .unexpectedCharacter),
        (#"{"items":[{a:1}]}"#, .unexpectedCharacter),
        (#"{"items":[[1,]]}"#, .unexpectedCharacter),
        (#"{"items":[{"a":1}"#, .unexpectedEnd),
        (#"{"items":[tru]}"#, .unexpectedCharacter),
        (#"{"items":[1]} x"#, .trailingData),
    ])
    func badJSONInsideAnItemIsRejectedAsTheFullParseRejectsIt(text: String, kind: JSONError.Kind) throws {
        #expect(try Self.error(text, "items[]") == kind)
    }

    @Test func aLongNumberInsideAnItemIsInRangeExactlyWhenTheParseFindsIt() throws {
        let digits308 = "9" + String(repeating: "9", count: 307)
        #expect(try Self.items("{\"items\":[\(digits308).5, \(digits308)9, -\(digits308)9.5e-400]}", "items[]").count == 3)
        #expect(try Self.error("{\"items\":[\(digits308)9.5]}", "items[]") == .numberOutOfRange)
        #expect(try Self.error("{\"items\":[\(digits308)e1]}", "items[]") == .numberOutOfRange)
        #expect(try Self.error("{\"items\":[1.5e308, 1.8e308]}", "items[]") == .numberOutOfRange)
    }

    @Test func badUTF8InsideAnItemIsRejected() {
        let bytes: [UInt8] = Array(#"{"items":[""#.utf8) + [0xC0, 0xAF] + Array(#""]}"#.utf8)
        #expect(ItemsCheck.problems(bytes, path: JSONPath(components: [.key("items"), .each]), names: ["items"]) == [])
        #expect(throws: JSONError.self) { try JSONValue.parse(bytes) }
    }

    @Test func membersBuildsOnlyTheNamedMembersLastDuplicateWinning() throws {
        let text = #" {"b":[1,{"x":"\u00e9"}],"\u0061":1,"c":{"deep":[true]},"a":"last"} "#
        let names = JSONMemberNames(["a", "c", "zz", "a"])
        #expect(names.names == ["a", "c", "zz", "a"])
        var bytes = text
        let values = try bytes.withUTF8 { buffer throws(JSONError) in try JSONValue.members(named: names, in: buffer) }
        #expect(values == ["last", ["deep": [true]], nil, "last"])
        var array = "[1,2]"
        #expect(try array.withUTF8 { buffer throws(JSONError) in try JSONValue.members(named: names, in: buffer) }
            == [nil, nil, nil, nil], "not an object: all nil")
        #expect(try Self.items(text, "") == [text.trimmingWhitespace], "the checks of ItemsCheck hold for names a, b")
    }

    /// The full parse's object keys are Swift strings, which compare by canonical equivalence: a key in NFD finds a
    /// name in NFC, U+212A KELVIN SIGN finds "K", though their bytes differ. The member lookup finds what it finds.
    @Test func keysMatchAsTheFullParsesKeysDoUnderCanonicalEquivalence() throws {
        let raw = "{\"cafe\u{301}\":1,\"\u{212A}ey\":2,\"Ohm\":3}"   // NFD é, the Kelvin sign: raw bytes
        let escaped = #"{"cafe\u0301":1,"\u212Aey":2,"Ohm":3}"#
        for text in [raw, escaped] {
            let whole = try JSONValue.parse(text)
            // U+2126 OHM SIGN is GREEK CAPITAL OMEGA, not "O": no match.
            for (names, found) in [(["caf\u{E9}", "Key", "\u{2126}hm"], [1, 2, nil]),
                                   (["cafe\u{301}", "\u{212A}ey", "Ohm"], [1, 2, 3])] as [([String], [JSONValue?])] {
                var bytes = text
                let values = try bytes.withUTF8 { buffer throws(JSONError) in
                    try JSONValue.members(named: JSONMemberNames(names), in: buffer)
                }
                let expected = names.map { JSONPath(components: [.key($0)]).evaluate(whole) }
                #expect(expected == found, "the full parse: \(names) in \(text)")
                #expect(values == expected, "\(names) in \(text)")
            }
        }
        // Names equal as strings are one name filling both slots.
        #expect(JSONMemberNames(["caf\u{E9}", "cafe\u{301}"]).slots == [[0, 1]])
    }

    @Test func valueAtAPathIsEvaluateOnTheWholeValue() throws {
        var text = #"{"a":{"b":[1,2,{"c":"x"}]},"d":[{"e":1},{"e":2}]}"#
        for (path, expected) in [("a.b[-1].c", "x"), ("a.b[0]", 1), ("d[].e", 1), ("d[1].e", 2), ("zz", nil),
                                 ("", try JSONValue.parse(text))] as [(String, JSONValue?)] {
            let jsonPath = try JSONPath(path)
            #expect(try text.withUTF8 { buffer throws(JSONError) in try JSONValue.value(at: jsonPath, in: buffer) }
                == expected, "\(path)")
        }
    }

    @Test func aSeededDifferentialAgainstTheFullParse() {
        var random = RandomJSON(seed: 0x5EED_17E4)
        var failures = 0
        for round in 0..<2_000 {
            let bytes = random.document(depth: random.below(5))
            let path = random.path()
            let maxDepth = random.pick([64, 64, 1, 2, 3, 4])
            let problems = ItemsCheck.problems(bytes, path: path, names: ["a", "items", "\u{e9}"], maxDepth: maxDepth)
            if !problems.isEmpty, failures < 5 {
                failures += 1
                Issue.record("round \(round): \(String(decoding: bytes, as: UTF8.self)) at \(path): \(problems)")
            }
        }
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
