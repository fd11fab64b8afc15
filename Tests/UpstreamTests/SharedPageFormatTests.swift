import JSON
import Testing
@testable import Upstream

/// The shared store's keys (no secret in the clear, no sharing across requests) and values (round trip; anything
/// malformed is a miss, never a crash).
@Suite struct SharedPageFormatTests {
    static let page = UpstreamPage<JSONValue>(items: [["id": 1, "name": "Zoë <a>", "big": .bigInteger("123456789012345678901"),
                                            "ratio": 1.0, "tags": ["x", nil, true]]],
                                   nextCursor: "https://api.example/v1?page=2&token=s3cret")

    @Test(arguments: [page.nextCursor, "", nil]) func valuesRoundTrip(cursor: String?) throws {
        var page = Self.page
        page.nextCursor = cursor
        let decoded = try #require(SharedPageCodec.decode(SharedPageCodec.encode(page, fetchedAt: 1_700_000_000_123),
                                                          maxBytes: 1 << 20, reader: .json))
        #expect(decoded.page.items == page.items)
        #expect(decoded.page.nextCursor == cursor)
        #expect(decoded.fetchedAt == 1_700_000_000_123)
    }

    @Test func theStoreKeepsTheUpstreamsTextsAndTheReaderReadsThem() throws {
        // Items as the upstream spelled them (whitespace, escapes): stored as they are, read back by the instance's
        // reader (a config table's: straight into rows), as a fetched page's are.
        let texts = [#"{ "id" : 1, "name": "a\u00e9" }"#, #"[2, null]"#]
        let body = Array(("[" + texts.joined(separator: " ,\n") + "]").utf8)
        var ranges: [Range<Int>] = []
        var start = 1
        for text in texts {
            ranges.append(start..<(start + text.utf8.count))
            start += text.utf8.count + 3
        }
        let page = UpstreamPage(items: texts, texts: ItemTexts(bytes: body, ranges: ranges), nextCursor: "n")
        let asText = ItemReader<String> { String(decoding: $0, as: UTF8.self) }
        let decoded = try #require(SharedPageCodec.decode(SharedPageCodec.encode(page, fetchedAt: 7), maxBytes: 1 << 20,
                                                          reader: asText))
        #expect(decoded.page.items == texts)
        #expect(decoded.page.texts.values == [["id": 1, "name": "aé"], [2, nil]])
        #expect(decoded.page.nextCursor == "n")
        // A reader that cannot read an item: the value is a miss.
        let refusing = ItemReader<Int> { (_) throws(JSONError) in throw JSONError(.unexpectedCharacter, at: 0, expected: "x") }
        #expect(SharedPageCodec.decode(SharedPageCodec.encode(page, fetchedAt: 7), maxBytes: 1 << 20, reader: refusing) == nil)
    }

    @Test func malformedValuesAreMisses() {
        let good = SharedPageCodec.encode(Self.page, fetchedAt: 42)
        for length in 0..<good.count {
            #expect(SharedPageCodec.decode(Array(good.prefix(length)), maxBytes: 1 << 20, reader: .json) == nil, "cut at \(length)")
        }
        #expect(SharedPageCodec.decode(good, maxBytes: good.count - 1, reader: .json) == nil, "over the size cap")
        var otherFormat = good
        otherFormat[0] = 0x02
        #expect(SharedPageCodec.decode(otherFormat, maxBytes: 1 << 20, reader: .json) == nil)
        var hugeLength = good
        hugeLength.replaceSubrange(10..<14, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(SharedPageCodec.decode(hugeLength, maxBytes: 1 << 20, reader: .json) == nil)
        let notAnArray = SharedPageCodec.encode(UpstreamPage<JSONValue>(items: [], nextCursor: nil), fetchedAt: 0).dropLast(2)
            + Array("{}".utf8)
        #expect(SharedPageCodec.decode(Array(notAnArray), maxBytes: 1 << 20, reader: .json) == nil)
        let badUTF8: [UInt8] = [0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0, 0, 0, 1, 0xFF] + Array("[]".utf8)
        #expect(SharedPageCodec.decode(badUTF8, maxBytes: 1 << 20, reader: .json) == nil)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var noise = good
            noise[Int.random(in: 0..<noise.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            _ = SharedPageCodec.decode(noise, maxBytes: 1 << 20, reader: .json)   // any answer but a crash
        }
    }

    @Test func keysHideCursorsAndSecretsAndSeparateRequests() {
        let secretScope = Array("GET\0https://api.example/v1\0Authorization\0Bearer s3cret\0".utf8)
        let keys = SharedPageKeys(table: "orders", scope: secretScope)
        let key = keys.page("https://api.example/v1?page=2&token=s3cret")
        #expect(key.hasPrefix("rowstream:page:v1:orders:"))
        #expect(key.count == "rowstream:page:v1:orders:".count + 32)
        #expect(!key.contains("s3cret") && !key.contains("api.example"))
        #expect(keys.lease("x").hasPrefix("rowstream:lease:v1:orders:"))
        #expect(keys.lease("x").dropFirst("rowstream:lease".count) == keys.page("x").dropFirst("rowstream:page".count))

        #expect(SharedPageKeys(table: "orders", scope: secretScope).page("c") == keys.page("c"), "stable across instances")
        #expect(keys.page(nil) != keys.page(""))
        #expect(SharedPageKeys(table: "orders", scope: secretScope + [1]).page("c") != keys.page("c"))
        #expect(SharedPageKeys(table: "orders2", scope: secretScope).page("c").dropFirst(26) != keys.page("c").dropFirst(25))
        #expect(SharedPageKeys(table: "orders", scope: secretScope, secret: [7]).page("c") != keys.page("c"))
        #expect(SharedPageKeys(table: "a b:c*", scope: []).page(nil).hasPrefix("rowstream:page:v1:a_b_c_:"))
        #expect(keys.page(String(repeating: "x", count: 100_000)).count == key.count, "long cursors make short keys")
    }
}
