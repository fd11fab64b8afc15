import JSON
import Sealing
import Testing
@testable import Upstream

/// The shared store's keys (no secret in the clear, no sharing across requests) and values (round trip; anything
/// malformed is a miss, never a crash).
@Suite struct SharedPageFormatTests {
    static let page = UpstreamPage<JSONValue>(items: [["id": 1, "name": "Zoë <a>", "big": .bigInteger("123456789012345678901"),
                                            "ratio": 1.0, "tags": ["x", nil, true]]],
                                   nextCursor: "https://api.example/v1?page=2&token=s3cret")

    @Test(arguments: [page.nextCursor, "", nil], [nil, 0, 2_500, Int.max])
    func valuesRoundTrip(cursor: String?, total: Int?) throws {
        var page = Self.page
        page.nextCursor = cursor
        page.total = total
        let decoded = try #require(SharedPageCodec.decode(SharedPageCodec.encode(page, fetchedAt: 1_700_000_000_123),
                                                          maxBytes: 1 << 20, reader: .json))
        #expect(decoded.page.items == page.items)
        #expect(decoded.page.nextCursor == cursor)
        #expect(decoded.page.total == total, "the list's total (\"150 of 2,500\") is kept for the other instances")
        #expect(decoded.fetchedAt == 1_700_000_000_123)
    }

    @Test func aValueWithoutATotalAsWrittenBeforeReadsAsNone() throws {
        // The layout before totals were kept: flags 0x01 (a cursor) or 0x00, nothing else.
        var old: [UInt8] = [SharedPageCodec.format] + Array(repeating: 0, count: 7) + [42, 0x01, 0, 0, 0, 1]
        old += Array("n[{\"id\":1}]".utf8)
        let decoded = try #require(SharedPageCodec.decode(old, maxBytes: 1 << 20, reader: .json))
        #expect(decoded.page.nextCursor == "n" && decoded.page.total == nil && decoded.page.items == [["id": 1]])
        var unknownFlag = SharedPageCodec.encode(Self.page, fetchedAt: 42)
        unknownFlag[9] |= 0x04
        #expect(SharedPageCodec.decode(unknownFlag, maxBytes: 1 << 20, reader: .json) == nil, "a flag it does not know: a miss")
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

    @Test func keysHideCursorsAndSecretsAndSeparateRequests() throws {
        let secretScope = Array("GET\0https://api.example/v1\0Authorization\0Bearer s3cret\0".utf8)
        let operatorKey = try SealingKeys(current: Array(repeating: 7, count: 32))
        let keys = SharedPageKeys(table: "orders", scope: secretScope, storeKey: operatorKey.storeKey)
        let key = keys.page("https://api.example/v1?page=2&token=s3cret")
        #expect(key.hasPrefix("rowstream:page:v2:orders:"))
        #expect(key.count == "rowstream:page:v2:orders:".count + 32)
        #expect(!key.contains("s3cret") && !key.contains("api.example"))
        #expect(keys.lease("x").hasPrefix("rowstream:lease:v2:orders:"))
        #expect(keys.lease("x").dropFirst("rowstream:lease".count) == keys.page("x").dropFirst("rowstream:page".count))

        let sameKeyFile = try SealingKeys(current: Array(repeating: 7, count: 32)).storeKey
        #expect(SharedPageKeys(table: "orders", scope: secretScope, storeKey: sameKeyFile).page("c") == keys.page("c"),
                "stable across instances with the same key file")
        #expect(keys.page(nil) != keys.page(""))
        #expect(SharedPageKeys(table: "orders", scope: secretScope + [1], storeKey: sameKeyFile).page("c") != keys.page("c"))
        #expect(SharedPageKeys(table: "orders2", scope: secretScope, storeKey: sameKeyFile).page("c").dropFirst(26)
                != keys.page("c").dropFirst(25))
        #expect(SharedPageKeys(table: "a b:c*", scope: [], storeKey: sameKeyFile).page(nil).hasPrefix("rowstream:page:v2:a_b_c_:"))
        #expect(keys.page(String(repeating: "x", count: 100_000)).count == key.count, "long cursors make short keys")
    }

    /// Issue 26, item 7: the digests are keyed by the operator's sealing key, so whoever reads Redis cannot test a
    /// guessed request (a user name, a credential) against its keys: the same request under another key file (or
    /// the old public constant) names other keys, and a rotation names every key anew.
    @Test func keysAreKeyedByTheOperatorsSealingKey() throws {
        let scope = Array("GET\0https://api.example/v1?user=alice\0".utf8)
        let first = try SealingKeys(current: Array(repeating: 1, count: 32))
        let rotated = try SealingKeys(current: Array(repeating: 2, count: 32), previous: [Array(repeating: 1, count: 32)])
        let names = [first.storeKey, rotated.storeKey, SealingKeys.random().storeKey].map {
            SharedPageKeys(table: "t", scope: scope, storeKey: $0).page(nil)
        }
        #expect(Set(names).count == 3)
        // The key as the code before this computed it, from the request alone (a public constant): not a key now.
        let unkeyed = KeyedHash.hmacSHA256(key: Array("rowstream shared page cache v1".utf8), Array("t".utf8) + [0] + scope)
        let guessed = KeyedHash.hmacSHA256(key: unkeyed, [1]).prefix(16).map { String($0, radix: 16) }.joined()
        #expect(names.allSatisfy { !$0.hasSuffix(guessed) })
    }

    /// Issue 26, item 3: a value is bound to its key (which names the table, the request with the viewer's forwarded
    /// values, and the cursor) and to the operator's key.
    @Test func valuesOpenOnlyAtTheirOwnKeyUnderTheirOwnOperatorKey() {
        let storeKey = StoreKey.random()
        let alice = SharedPageKeys(table: "t", scope: Array("who=alice".utf8), storeKey: storeKey)
        let bob = alice.rescoped(to: Array("who=bob".utf8))
        let value = SharedPageCodec.encode(Self.page, fetchedAt: 7)
        let stored = alice.sealed(value, at: alice.page(nil))
        #expect(stored.count == value.count + SharedPageKeys.sealOverhead)
        #expect(alice.opened(stored, at: alice.page(nil)) == value)
        #expect(alice.opened(stored, at: alice.page("p2")) == nil, "another cursor's key")
        #expect(bob.opened(stored, at: bob.page(nil)) == nil, "another identity's key")
        #expect(bob.opened(stored, at: alice.page(nil)) == nil, "another identity's scope at the same name")
        let otherOperator = SharedPageKeys(table: "t", scope: Array("who=alice".utf8), storeKey: .random())
        #expect(otherOperator.opened(stored, at: alice.page(nil)) == nil, "another sealing key (rotated, or an attacker's)")
        #expect(alice.opened(value, at: alice.page(nil)) == nil, "an unsealed value")
        for index in [0, 1, 20, stored.count - 1] {
            var altered = stored
            altered[index] ^= 1
            #expect(alice.opened(altered, at: alice.page(nil)) == nil, "byte \(index) altered")
        }
        #expect(alice.opened(Array(stored.prefix(SharedPageKeys.sealOverhead - 1)), at: alice.page(nil)) == nil)
    }
}
