import Testing
@testable import rowstream_load

/// The soak's reading of a live table's change events (`LiveChange`): the protocol's forms pass, and each way a
/// change could break it (a row without its key, a row numbered as if it were part of the stream, an empty change,
/// a remove that names no key) is malformed, so the soak counts it as a violation.
@Suite struct LiveChangeTests {
    static func change(_ name: String, _ data: String) -> LiveChange? { LiveChange(name: name, data: Array(data.utf8)) }

    static let row = #"<tr data-key="102"><td class="rs-c rs-number">102</td><td class="rs-c rs-text">Ken</td></tr>"#

    @Test func insertsAndUpdatesAreKeyedRowsWithoutAnIndex() throws {
        let insert = try #require(Self.change("insert", Self.row + Self.row.replacingOccurrences(of: "102", with: "7")))
        #expect(insert.kind == .insert && insert.count == 2 && insert.isWellFormed)
        let update = try #require(Self.change("update", Self.row))
        #expect(update.kind == .update && update.count == 1 && update.isWellFormed)
    }

    @Test(arguments: [
        #"<tr data-key="102" data-index="4"><td>102</td></tr>"#,  // a change has no place in the stream's numbering
        #"<tr data-key="102"><td>102</td></tr><tr><td>103</td></tr>"#,  // a row that cannot be followed
        "",  // nothing to apply
    ])
    func rowsOutOfTheProtocolAreMalformed(_ data: String) throws {
        #expect(try #require(Self.change("insert", data)).isWellFormed == false)
        #expect(try #require(Self.change("update", data)).isWellFormed == false)
    }

    @Test func removesNameTheirKeys() throws {
        let remove = try #require(Self.change("remove", #"{"keys":["7","9"]}"#))
        #expect(remove.kind == .remove && remove.count == 2 && remove.isWellFormed)
        for data in [#"{"keys":[]}"#, #"["7","9"]"#, #"{"keys":["7"]"#, ""] {
            #expect(try #require(Self.change("remove", data)).isWellFormed == false, "\(data)")
        }
    }

    @Test func freshIsAnEmptyObject() throws {
        #expect(try #require(Self.change("fresh", "{}")).isWellFormed)
        #expect(try #require(Self.change("fresh", #"{"keys":["7"]}"#)).isWellFormed == false)
    }

    @Test func otherEventsAreNoChange() {
        for name in ["rows", "session", "complete", "loading", "error", "heartbeat"] {
            #expect(Self.change(name, Self.row) == nil)
        }
    }
}
