import Testing
@testable import JSON

/// Integers beyond Int64 keep the upstream's literal: parsed, displayed and serialized exactly.
@Suite struct BigIntegerTests {
    @Test(arguments: [
        "9223372036854775808",
        "-9223372036854775809",
        "12345678901234567890123",
        "18446744073709551615",
    ])
    func roundTripsExactly(literal: String) throws {
        let value = try JSONValue.parse("{\"id\":\(literal)}")
        #expect(value["id"] == .bigInteger(literal))
        #expect(value["id"]?.displayText == literal)
        #expect(String(decoding: value.serialized(), as: UTF8.self) == "{\"id\":\(literal)}")
    }

    @Test func doubleValueIsApproximate() {
        #expect(JSONValue.bigInteger("10000000000000000000").doubleValue == 1e19)
        #expect(JSONValue.bigInteger("10000000000000000000").intValue == nil)
    }

    @Test func fractionsAndExponentsStayDoubles() throws {
        #expect(try JSONValue.parse("12345678901234567890.5") == .double(12345678901234567890.5))
        #expect(try JSONValue.parse("1e19") == .double(1e19))
    }

    @Test func int64EdgesStayInts() throws {
        #expect(try JSONValue.parse("9223372036854775807") == .int(.max))
        #expect(try JSONValue.parse("-9223372036854775808") == .int(.min))
    }
}
