import JSON
import Testing
@testable import Tables

@Suite struct NumberFormatTests {
    @Test(arguments: [
        (JSONValue.int(0), "0"), (7, "7"), (999, "999"), (1000, "1,000"), (-1000, "-1,000"),
        (-1_234_567, "-1,234,567"), (123_456, "123,456"),
        (.int(Int64.max), "9,223,372,036,854,775,807"),
        (.int(Int64.min), "-9,223,372,036,854,775,808"),
        (.bigInteger("9223372036854775808"), "9,223,372,036,854,775,808"),
        (.bigInteger("-123456789012345678901"), "-123,456,789,012,345,678,901"),
        (3.1, "3.1"), (1234.5, "1,234.5"), (-1234.567, "-1,234.567"), (0.004, "0.004"), (-0.25, "-0.25"),
        (1234567.125, "1,234,567.125"), (3.0, "3"), (.double(0.1 + 0.2), "0.30000000000000004"),
        ("12<3", "12&lt;3"), (true, "true"),
    ])
    func asTheUpstreamWroteThem(value: JSONValue, expected: String) {
        #expect(Support.cell(.number, value) == expected)
    }

    @Test(arguments: [
        (JSONValue.double(1234.5), 2, "1,234.50"), (-1234.567, 2, "-1,234.57"), (0.004, 2, "0.00"), (-0.004, 2, "0.00"),
        (0.005, 2, "0.01"), (999999.999, 2, "1,000,000.00"), (3.1, 2, "3.10"), (3.0, 2, "3.00"), (2.5, 0, "3"),
        (1234.56789, 3, "1,234.568"), (0.1234567, 6, "0.123457"), (.int(1234), 2, "1,234.00"), (.int(-7), 0, "-7"),
        (.bigInteger("12345678901234567890"), 2, "12,345,678,901,234,567,890"), (1e20, 2, "1e+20"),
    ])
    func fixedDecimalsWhenTheColumnAsks(value: JSONValue, decimals: Int, expected: String) {
        #expect(Support.cell(.number, value, decimals: decimals) == expected)
    }

    @Test func decimalsOutOfRangeAreClamped() {
        var column = Column(title: "V", field: Support.path("v"), format: .number)
        column.decimals = 40   // set directly, past the initializer's clamp
        let renderer = TableRenderer(spec: TableSpec(name: "t", title: "T", columns: [column], keyField: Support.path("id")))
        let html = Support.text(renderer.renderRows([["v": 1.5], ["v": .int(2)]], startIndex: 0))
        #expect(html.contains(">1.500000</td>") && html.contains(">2.000000</td>"))
        column.decimals = -3
        let negative = TableRenderer(spec: TableSpec(name: "t", title: "T", columns: [column], keyField: Support.path("id")))
        #expect(Support.text(negative.renderRows([["v": 1.5]], startIndex: 0)).contains(">2</td>"))
    }

    @Test(arguments: ["1e+21", "1.", ".5", "-", "1.2.3", "12a", "", "-.5"])
    func literalsThatAreNotPlainNumbersShowAsTheyAre(literal: String) {
        var out = ByteWriter(capacity: 16)
        NumberFormatting.appendGrouped(literal: literal, to: &out)
        #expect(String(decoding: out.bytes, as: UTF8.self) == literal)
    }

    @Test func hugeDoublesFallBackToText() {
        #expect(Support.cell(.number, 1e20) == "1e+20")
    }

    @Test func bigIntegersAreExactAsText() {
        #expect(Support.cell(.text, .bigInteger("12345678901234567890123")) == "12345678901234567890123")
    }
}

@Suite struct DateFormatTests {
    @Test(arguments: [
        (JSONValue.string("2024-03-05"), #"<time datetime="2024-03-05">2024-03-05</time>"#),
        ("2024-03-05T14:07:09Z", #"<time datetime="2024-03-05T14:07:09Z">2024-03-05 14:07</time>"#),
        ("2024-03-05T14:07Z", #"<time datetime="2024-03-05T14:07:00Z">2024-03-05 14:07</time>"#),
        ("2024-03-05 14:07:09.123456", #"<time datetime="2024-03-05T14:07:09Z">2024-03-05 14:07</time>"#),
        ("2024-03-05T01:30:00+02:00", #"<time datetime="2024-03-04T23:30:00Z">2024-03-04 23:30</time>"#),
        ("2023-12-31T23:30:00-0130", #"<time datetime="2024-01-01T01:00:00Z">2024-01-01 01:00</time>"#),
        ("2024-02-29T00:00:00z", #"<time datetime="2024-02-29T00:00:00Z">2024-02-29 00:00</time>"#),
        (0, #"<time datetime="1970-01-01T00:00:00Z">1970-01-01 00:00</time>"#),
        (1_700_000_000, #"<time datetime="2023-11-14T22:13:20Z">2023-11-14 22:13</time>"#),
        (-1, #"<time datetime="1969-12-31T23:59:59Z">1969-12-31 23:59</time>"#),
        (1_700_000_000.9, #"<time datetime="2023-11-14T22:13:20Z">2023-11-14 22:13</time>"#),
        (951_782_400, #"<time datetime="2000-02-29T00:00:00Z">2000-02-29 00:00</time>"#),
    ])
    func parsesAndFormatsUTC(value: JSONValue, expected: String) {
        #expect(Support.cell(.date, value) == expected)
    }

    @Test(arguments: [
        "yesterday", "2024-13-01", "2024-02-30", "2023-02-29", "2024-3-5", "2024-03-05T25:00Z",
        "2024-03-05T10:60Z", "2024-03-05T10:00+2", "2024-03-05X", " 2024-03-05", "2024-03-05T10:00:00.Z",
        "<script>2024-03-05</script>",
    ])
    func unparseableIsEscapedText(text: String) {
        #expect(Support.cell(.date, .string(text)) == HTMLEscaping.escaped(text))
    }

    @Test func outOfRangeUnixSecondsAreText() {
        #expect(Support.cell(.date, .int(Int64.max)) == "9223372036854775807")
        #expect(Support.cell(.date, true) == "true")
    }

    @Test func civilRoundTrip() {
        for seconds: Int64 in [-62_167_219_200, -86_401, 0, 68_169_600, 253_402_300_799, 4_102_444_800] {
            let time = CivilTime(unixSeconds: seconds)
            #expect(time?.unixSeconds == seconds)
        }
        #expect(CivilTime(unixSeconds: 253_402_300_800) == nil)
    }
}

@Suite struct LinkFormatTests {
    @Test func httpLinks() {
        #expect(Support.cell(.link, "https://example.test/a?b=1&c=2")
            == #"<a href="https://example.test/a?b=1&amp;c=2" rel="noopener noreferrer nofollow">https://example.test/a?b=1&amp;c=2</a>"#)
        #expect(Support.cell(.link, "  HTTP://x.test/\n")
            == #"<a href="HTTP://x.test/" rel="noopener noreferrer nofollow">HTTP://x.test/</a>"#)
    }

    @Test func labelField() {
        let cell = Support.cell(.link, "https://x.test/\"><script>", item: ["name": "<b>Repo</b>"], labelField: "name")
        #expect(cell == #"<a href="https://x.test/&quot;&gt;&lt;script&gt;" rel="noopener noreferrer nofollow">&lt;b&gt;Repo&lt;/b&gt;</a>"#)
        #expect(Support.cell(.link, "https://x.test/", labelField: "missing").contains(">https://x.test/</a>"))
    }

    @Test(arguments: [
        "javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "\tjavascript:alert(1)",
        "\u{1}javascript:alert(1)", "java\tscript:alert(1)", "data:text/html,<script>alert(1)</script>",
        "vbscript:x", "//evil.test/", "/relative", "http:/x", "https//x", "httpx://x", "ftp://x.test/",
        "\"https://x.test/", "",
    ])
    func unsafeSchemesArePlainText(url: String) {
        let cell = Support.cell(.link, .string(url))
        #expect(!cell.contains("<a"), "\(cell)")
        #expect(!cell.contains("<"), "\(cell)")
        #expect(cell == HTMLEscaping.escaped(url))
    }

    @Test func unsafeLinkShowsLabelAsText() {
        #expect(Support.cell(.link, "javascript:x", item: ["l": "<Click>"], labelField: "l") == "&lt;Click&gt;")
    }
}

@Suite struct BadgeFormatTests {
    @Test(arguments: [
        (JSONValue.string("Open"), #"<span class="rs-badge rs-badge-open">Open</span>"#),
        ("In Progress!", #"<span class="rs-badge rs-badge-in-progress-">In Progress!</span>"#),
        ("\"><script>", #"<span class="rs-badge rs-badge----script-">&quot;&gt;&lt;script&gt;</span>"#),
        ("Café 9", #"<span class="rs-badge rs-badge-caf--9">Café 9</span>"#),
        (42, #"<span class="rs-badge rs-badge-42">42</span>"#),
        (true, #"<span class="rs-badge rs-badge-true">true</span>"#),
    ])
    func badges(value: JSONValue, expected: String) {
        #expect(Support.cell(.badge, value) == expected)
    }

    @Test func slugIsTruncatedTo32() {
        let long = String(repeating: "Ab", count: 40)
        let cell = Support.cell(.badge, .string(long))
        #expect(cell.contains("rs-badge-" + String(repeating: "ab", count: 16) + "\""))
    }
}
