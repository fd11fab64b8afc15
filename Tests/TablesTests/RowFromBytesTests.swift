import JSON
import Testing
@testable import Tables
import TestSupport

/// `RowMaker.row(json:)`, a row read straight from an item's bytes, equals `row(_:)` of the parsed item: every cell
/// format, links with labels, sections with sums, card title and image, nested paths, duplicate and escaped keys;
/// bad bytes fail with the full parse's error.
@Suite struct RowFromBytesTests {
    static let paths = ["a", "b", "c", "id", "a.b", "a[0]", "a[-1]", "b[].c", "c.a.b", "\u{e9}", "x.a", "x.b.c", "x.b.id"]

    /// Every kind of column and path, a section with a sum footer, a grid card.
    static func spec(fields: [String], label: String? = "b", extraRootPath: String? = nil) -> TableSpec {
        var columns = ColumnFormat.allCases.enumerated().map { index, format in
            Column(title: format.rawValue, field: Support.path(fields[index % fields.count]), format: format,
                   labelField: format == .link ? label.map(Support.path) : nil)
        }
        if let extraRootPath { columns.append(Column(title: "R", field: Support.path(extraRootPath))) }
        var spec = TableSpec(name: "t", title: "T", columns: columns, keyField: Support.path("id"))
        spec.sections = SectionSpec(field: Support.path(fields[0]), footer: .sum(Support.path(fields.last!)))
        spec.grid = GridSpec(titleField: Support.path(fields[1 % fields.count]),
                             imageField: Support.path(fields[2 % fields.count]))
        return spec
    }

    /// `row(json:)` of `text`, after checking it equals `row(_:)` of the parse (or fails as the parse does).
    @discardableResult
    static func check(_ spec: TableSpec, _ text: [UInt8], maxDepth: Int = 64,
                      sourceLocation: SourceLocation = #_sourceLocation) -> Result<Row, JSONError> {
        let maker = RowMaker(spec: spec)
        let fromBytes = text.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONError) in try maker.row(json: buffer, maxDepth: maxDepth) }
        }
        let fromValue = Result { () throws(JSONError) in maker.row(try JSONValue.parse(text, maxDepth: maxDepth)) }
        #expect(fromBytes == fromValue, "\(String(decoding: text, as: UTF8.self))", sourceLocation: sourceLocation)
        return fromBytes
    }

    @Test func aRowFromBytesEqualsTheRowOfTheParsedItem() throws {
        let text = #" { "id" : "k1", "a": {"b": "https://x.test/<i>", "z": [1,2]}, "b": [{"c": 12.5}, {"c": "3"}],"#
            + #" "c": "2024-02-29T23:59:59Z", "skipped": {"deep": [1, "\u00e9", null, true]}, "\u00e9": 5,"#
            + #" "x": {"a": "xa", "b": {"c": [1], "id": "-7", "more": {}}, "zz": 2} } "#
        let row = try Self.check(Self.spec(fields: Self.paths), Array(text.utf8)).get()
        #expect(row.key == "k1")
        #expect(row.cardImage == "2024-02-29T23:59:59Z")
        #expect(row.cardTitle == #"[{"c":12.5},{"c":"3"}]"#)
        #expect(row.section == #"{"b":"https://x.test/<i>","z":[1,2]}"#)
        #expect(row.sectionValue == -7)
        #expect(row.cells[3] == .link("k1", label: #"[{"c":12.5},{"c":"3"}]"#), "the link column reads id, labelled by b")
    }

    @Test func membersReadOnlyAsFarAsTheirPathsGoGiveTheSameCells() throws {
        let spec = Self.spec(fields: ["owner.login", "owner.site.url", "id"])
        for text in [#"{"id":1,"owner":{"login":"o","id":2,"site":{"url":"https://o.test","x":[1]}}}"#,
                     #"{"owner":{"login":"first"},"owner":{"\u006cogin":"second","login":"third"}}"#,
                     #"{"owner":{"login":"o"},"owner":[1]}"#, #"{"owner":"o"}"#, #"{"owner":{"site":7}}"#] {
            Self.check(spec, Array(text.utf8))
        }
        let row = try Self.check(spec, Array(#"{"owner":{"login":"a","site":{"url":"https://o.test"}},"id":"k"}"#.utf8)).get()
        #expect(row.cells.prefix(2) == [.text("a"), .text("https://o.test")])
    }

    @Test func duplicateAndEscapedKeysReadAsTheParseReadsThem() throws {
        let text = #"{"a":{"b":"first"},"id":1,"\u0061":{"b":"second"},"id":2,"a":[7,8,9]}"#
        let row = try Self.check(Self.spec(fields: ["a[0]", "a[-1]", "a.b"]), Array(text.utf8)).get()
        #expect(row.key == "2")
        #expect(row.cells.prefix(3) == [.integer(7), .integer(9), .empty])
    }

    /// Keys equal as Swift strings are one key, as in the parsed item: NFD "é" for a path in NFC, and the Kelvin sign.
    @Test func canonicallyEquivalentKeysReadAsTheParseReadsThem() throws {
        let text = "{\"id\":\"\u{212A}\",\"caf\u{E9}\":0,\"cafe\u{301}\":{\"b\":5},\"\u{212A}\":\"k\"}"
        let row = try Self.check(Self.spec(fields: ["caf\u{E9}.b", "K", "id"]), Array(text.utf8)).get()
        #expect(row.key == "\u{212A}")
        #expect(row.cells.prefix(3) == [.integer(5), .text("k"), .text("\u{212A}")])
    }

    @Test func aRootOrIndexPathReadsTheWholeItem() throws {
        for root in ["", "[0]", "[]"] {
            for text in [#"{"a":1,"id":"x"}"#, #"[{"a":2},3]"#, #""s""#] {
                Self.check(Self.spec(fields: ["a", "b"], extraRootPath: root), Array(text.utf8))
            }
        }
    }

    @Test func anItemThatIsNotAnObjectGivesAnEmptyRow() throws {
        for text in ["[1,2]", "12", "null", #""id""#] {
            let row = try Self.check(Self.spec(fields: Self.paths), Array(text.utf8)).get()
            #expect(row.key == nil && row.cells.allSatisfy { $0 == .empty }, "\(text)")
        }
    }

    @Test(arguments: [#"{"a":1,"x":[1,}"#, #"{"a":"\x"}"#, #"{"zz":01}"#, #"{"a":1} x"#, #"{"a":1"#, "", #"{"a":1,}"#])
    func badBytesFailAsTheParseFails(text: String) {
        #expect(throws: JSONError.self) { try Self.check(Self.spec(fields: Self.paths), Array(text.utf8)).get() }
    }

    @Test func theDepthLimitCountsFromTheItemInReadAndSkippedMembers() throws {
        let spec = Self.spec(fields: ["a"])
        for member in ["a", "unread"] {
            let text = Array(#"{"\#(member)":[[1]]}"#.utf8)
            #expect(throws: JSONError.self) { try Self.check(spec, text, maxDepth: 2).get() }
            _ = try Self.check(spec, text, maxDepth: 3).get()
        }
    }

    @Test func aSeededDifferentialOverItemsAndSpecs() {
        var random = RandomItems(seed: 0x0123_4567_89AB_CDEF)
        var failures = 0
        for _ in 0..<2_000 {
            let fields = (0..<random.below(3) + 1).map { _ in random.pick(Self.paths) }
            let spec = Self.spec(fields: fields, label: random.pick([nil, "b", "c.a", "a[-1]"]),
                                 extraRootPath: random.pick([nil, nil, nil, "", "[0]"]))
            let text = random.item()
            let maxDepth = random.pick([64, 64, 2, 3])
            let maker = RowMaker(spec: spec)
            let fromBytes = text.withUnsafeBufferPointer { buffer in
                Result { () throws(JSONError) in try maker.row(json: buffer, maxDepth: maxDepth) }
            }
            let fromValue = Result { () throws(JSONError) in maker.row(try JSONValue.parse(text, maxDepth: maxDepth)) }
            if fromBytes != fromValue, failures < 5 {
                failures += 1
                Issue.record("\(String(decoding: text, as: UTF8.self)) with \(fields): \(fromBytes) != \(fromValue)")
            }
        }
    }
}

/// Seeded pseudo-random item texts: objects (sometimes not) whose members use the test paths' keys, duplicated,
/// escaped, nested, with whitespace anywhere and sometimes one corrupted byte.
struct RandomItems {
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func below(_ n: Int) -> Int { random.below(n) }

    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

    mutating func item() -> [UInt8] {
        var bytes = Array((space() + (below(10) == 0 ? value(depth: 2) : object(depth: 3)) + space()).utf8)
        if below(8) == 0, !bytes.isEmpty {
            bytes[below(bytes.count)] = pick(Array("{}[],:\"\\ 0".utf8) + [0xFF])
        }
        return bytes
    }

    mutating func object(depth: Int) -> String {
        "{" + (0..<below(7)).map { _ in
            space() + "\"" + pick(["a", "b", "c", "id", "\\u0061", "\u{e9}", "x", "x", "z"]) + "\"" + space() + ":" + space()
                + value(depth: depth - 1) + space()
        }.joined(separator: ",") + "}"
    }

    mutating func value(depth: Int) -> String {
        switch below(depth > 0 ? 12 : 8) {
        case 0: return pick(["0", "-12", "9223372036854775808", "1.5e3", "-0.25", "12.50"])
        case 1: return pick(["\"x<&>\"", "\"\\u00e9\\n\"", "\"https://a.test/?q=1&r=<2>\"", "\"javascript:x\"", "\"\""])
        case 2: return pick(["\"2024-02-29T23:59:59Z\"", "\"2024-13-01\"", "\"1700000000\"", "\"-3.5\"", "\"1e400\""])
        case 3: return pick(["true", "false", "null", "[]", "{}"])
        case 4...7: return "\(below(1000))"
        case 8, 9: return object(depth: depth)
        default: return "[" + (0..<below(4)).map { _ in space() + value(depth: depth - 1) }.joined(separator: ",") + "]"
        }
    }

    mutating func space() -> String { pick(["", "", " ", "\n\t"]) }
}
