import Testing
@testable import JSON

@Suite struct ParseInvalidTests {
    @Test(arguments: [
        "", " ", "nul", "truex", "True", "NaN", "Infinity", "-Infinity", "+1", "01", "-01", "00",
        "1.", ".5", "1e", "1e+", "-", "0x10", "1.5.2", "[1,]", "[,1]", "[1 2]", "{\"a\"}",
        "{\"a\":}", "{\"a\":1,}", "{a:1}", "{'a':1}", "{\"a\" 1}", "[", "]", "{", "}", "[1}", "{\"a\":1]",
        "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\uZZZZ\"", "\"tab\there\"", "\"line\nbreak\"",
        "1 2", "{} {}", "[] x", "null,", "1e999", "-1e999", "\"\\", "/* c */ 1",
    ])
    func rejects(text: String) {
        #expect(throws: JSONError.self) { try JSONValue.parse(text) }
    }

    @Test func rejectsUnpairedSurrogates() {
        for text in [#""\ud800""#, #""\ud800x""#, #""\udc00""#, #""\ud800\u0041""#, #""\ud800\ud800""#] {
            #expect(throws: JSONError.self) { try JSONValue.parse(text) }
            do { _ = try JSONValue.parse(text) } catch { #expect(error.kind == .unpairedSurrogate) }
        }
    }

    @Test(arguments: [
        [0x22, 0xFF, 0x22],                    // invalid byte
        [0x22, 0xC0, 0xAF, 0x22],              // overlong "/"
        [0x22, 0xE0, 0x80, 0xAF, 0x22],        // overlong 3-byte
        [0x22, 0xED, 0xA0, 0x80, 0x22],        // encoded surrogate
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
        [0x22, 0xC3, 0x22],                    // truncated sequence
        [0x22, 0xE2, 0x82, 0x22],              // truncated 3-byte
        [0x80],                                // stray continuation at top level
    ] as [[UInt8]])
    func rejectsInvalidUTF8(bytes: [UInt8]) {
        #expect(throws: JSONError.self) { try JSONValue.parse(bytes) }
    }

    @Test func trailingDataIsNamedWithOffset() {
        do {
            _ = try JSONValue.parse("[1] x")
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .trailingData)
            #expect(error.offset == 4)
            #expect(error.description.contains("4"))
        }
    }

    @Test func tooDeepIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        do {
            _ = try JSONValue.parse(deep)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .tooDeep)
        }
        let objects = String(repeating: #"{"a":"#, count: 65) + "1" + String(repeating: "}", count: 65)
        #expect(throws: JSONError.self) { try JSONValue.parse(objects) }
    }

    @Test func depthLimitIsCappedSoValuesStaySafeToUse() throws {
        let n = JSONValue.depthCap
        let fits = String(repeating: "[", count: n) + String(repeating: "]", count: n)
        let value = try JSONValue.parse(Array(fits.utf8), maxDepth: 1_000_000)
        #expect(try JSONValue.parse(value.serialized(), maxDepth: n) == value)
        let over = String(repeating: "[", count: n + 1) + String(repeating: "]", count: n + 1)
        #expect(throws: JSONError.self) { try JSONValue.parse(Array(over.utf8), maxDepth: 1_000_000) }
        let unclosed = String(repeating: "[", count: 100_000)
        #expect(throws: JSONError.self) { try JSONValue.parse(Array(unclosed.utf8), maxDepth: 1_000_000) }
    }
}
