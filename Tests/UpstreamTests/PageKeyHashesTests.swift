import JSON
import Testing
@testable import Upstream

/// Issue 17 (arrivals as cheap as a broadcast): a table's walks hash a cached page's keys once for all viewers, and
/// drop, keep and remember exactly what a walk hashing its own pages does.
@Suite struct PageKeyHashesTests {
    static func page(_ items: [JSONValue], next: String?) -> UpstreamPage<JSONValue> { UpstreamPage<JSONValue>(items: items, nextCursor: next) }

    @Test func walksOfOnePageHashItOnceAndDropTheSame() throws {
        let key = WalkHashKey.random()
        let shared = PageKeyHashes(key: key)
        // A repeat on the page and an item without a key (kept, never dropped).
        let items: [JSONValue] = [["id": 1], ["id": 2], ["id": 1], ["name": "no key"], ["id": .null], ["id": "2"]]
        let first = Self.page(items, next: "a")
        let second = Self.page([["id": 2], ["id": 3]], next: "b")
        var positions: [KeyWindow?] = []
        for _ in 0..<3 {
            let walker = PageWalker<JSONValue>(keyPath: try JSONPath("id"), hashKey: key, pageHashes: shared)
            let fresh = try walker.admit(first, from: nil)
            #expect(fresh.items == [["id": 1], ["id": 2], ["name": "no key"], ["id": .null], ["id": "2"]])
            #expect(try walker.admit(second, from: "a").items == [["id": 3]])
            positions.append(walker.window)
        }
        #expect(shared.computed == 2, "each page array hashed once for the three walks")
        // A walk with the same key hashing its own pages ends at the same window.
        let alone = PageWalker<JSONValue>(keyPath: try JSONPath("id"), hashKey: key)
        _ = try alone.admit(first, from: nil)
        _ = try alone.admit(second, from: "a")
        #expect(positions.allSatisfy { $0 == alone.window })
        // Equal items in another array are hashed anew (identity, not content).
        let copy = Self.page(items.map { $0 }, next: "a")
        _ = try PageWalker<JSONValue>(keyPath: try JSONPath("id"), hashKey: key, pageHashes: shared).admit(copy, from: nil)
        #expect(shared.computed == 3)
    }

    @Test func anotherKeysHashesAreNotUsed() throws {
        let shared = PageKeyHashes(key: .random())
        let walker = PageWalker<JSONValue>(keyPath: try JSONPath("id"), hashKey: .random(), pageHashes: shared)
        _ = try walker.admit(Self.page([["id": 1]], next: nil), from: nil)
        #expect(shared.computed == 0)
    }

    @Test func theCacheIsBounded() throws {
        let shared = PageKeyHashes(key: .random())
        let pages: [ItemTexts] = (0..<(PageKeyHashes.capacity + 1)).map { ItemTexts([["id": .int(Int64($0))]]) }
        let path = try JSONPath("id")
        for items in pages { _ = shared.keys(of: items, keyPath: path) }
        _ = shared.keys(of: pages.last!, keyPath: path)
        #expect(shared.computed == pages.count, "the newest is kept")
        _ = shared.keys(of: pages[0], keyPath: path)
        #expect(shared.computed == pages.count + 1, "the oldest went")
    }

    /// Issue 26, item 10: an entry keeps nothing of its page alive. The ranges array here has room to grow; once the
    /// page's texts are gone, appending to it writes in place only if nothing else holds its buffer (copy-on-write
    /// copies a buffer held elsewhere: an entry holding the page's ranges, as before, made it move).
    @Test func aPageTheCacheDroppedIsNotKeptAlive() throws {
        let shared = PageKeyHashes(key: .random())
        let path = try JSONPath("id")
        let bytes = Array(#"[{"id":1},{"id":2}]"#.utf8)
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(8)
        ranges += [1..<9, 10..<18]
        do {
            let texts = ItemTexts(bytes: bytes, ranges: ranges)
            #expect(shared.keys(of: texts, keyPath: path) == shared.keys(of: texts, keyPath: path))
            #expect(shared.computed == 1 && shared.live == 1, "hashed once while the page lives")
        }
        let before = ranges.withUnsafeBufferPointer { $0.baseAddress }
        ranges.append(18..<19)
        #expect(ranges.withUnsafeBufferPointer { $0.baseAddress } == before, "nothing else held the page's ranges")
        #expect(shared.live == 0)
    }
}

extension PageKeyHashesTests {
    /// A page's own repeats are found once (``PageKeys``); a walk with keys of earlier pages drops those too, in page
    /// order, and a fresh walk drops the page's repeats alone.
    @Test func aPagesKeysDropItsRepeatsAndWhatTheLastPagesHad() {
        let keys = PageKeys(hashes: [1, 2, 1, nil, 3, 2, 4, 3])
        #expect(keys.keyed == [1, 2, 1, 3, 2, 4, 3])
        #expect(keys.repeats == [2, 5, 7])
        #expect(keys.dropped(after: RecentKeys()) == [2, 5, 7])
        var recent = RecentKeys()
        recent.record(page: [3, 9])
        #expect(keys.dropped(after: recent) == [2, 4, 5, 7])
        recent.record(page: [1])
        #expect(keys.dropped(after: recent) == [0, 2, 4, 5, 7])
    }
}
