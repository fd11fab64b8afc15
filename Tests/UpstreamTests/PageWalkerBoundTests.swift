import JSON
import Testing
@testable import Upstream

/// The walk's dedup memory is bounded by the page size: the keys of the last two pages, never every row read.
@Suite struct PageWalkerBoundTests {
    /// A page of items `{"id": N}` for `ids`, followed by cursor `next`.
    static func page(_ ids: [Int], next: String?) -> UpstreamPage<JSONValue> {
        UpstreamPage<JSONValue>(items: ids.map { ["id": .int(Int64($0))] }, nextCursor: next)
    }

    static func ids(_ page: UpstreamPage<JSONValue>) -> [Int64] { page.items.compactMap { $0["id"]?.intValue } }

    @Test func heldKeysDoNotGrowWithRowsRead() throws {
        let walker = PageWalker<JSONValue>(keyPath: try JSONPath("id"))
        var held: [Int] = []
        for index in 0..<200 {
            let ids = Array(index * 25..<(index + 1) * 25)
            let fresh = try walker.admit(Self.page(ids, next: "c\(index + 1)"), from: index == 0 ? nil : "c\(index)")
            #expect(Self.ids(fresh) == ids.map(Int64.init))
            held.append(walker.held.keys)
        }
        // 5,000 distinct rows read; the walk holds the last two pages' keys (50), not 5,000.
        #expect(held.max() == 50)
        #expect(held.last == 50)
    }

    /// Issue 17 (memory per idle stream): a viewer that read one page keeps one array of its hashes (the window a
    /// resume token carries, searched in place), not a sorted copy beside it; and the window does not keep the
    /// capacity of two pages.
    @Test func onePageIsHeldOnce() throws {
        let walker = PageWalker<JSONValue>(keyPath: try JSONPath("id"))
        _ = try walker.admit(Self.page(Array(0..<50), next: "a"), from: nil)
        #expect(walker.held.keys == 50)
        #expect(walker.storedHashes <= 64, "one page of 50 hashes, stored \(walker.storedHashes)")
        for index in 1..<20 {
            _ = try walker.admit(Self.page(Array(index * 50..<(index + 1) * 50), next: "c\(index)"),
                                 from: index == 1 ? "a" : "c\(index - 1)")
        }
        // The older page sorted (50) and the window (64), whatever was read before.
        #expect(walker.storedHashes <= 50 + 64 + 16, "stored \(walker.storedHashes)")
        let long = PageWalker<JSONValue>(keyPath: try JSONPath("id"))
        _ = try long.admit(Self.page(Array(0..<200), next: "a"), from: nil)
        _ = try long.admit(Self.page(Array(200..<400), next: "b"), from: "a")
        let third = try long.admit(Self.page([5, 250, 399, 400], next: "c"), from: "b")
        #expect(Self.ids(third) == [400], "pages longer than the window: both still known")
    }

    @Test func aRepeatAcrossAPageBoundaryIsDropped() throws {
        let walker = PageWalker<JSONValue>(keyPath: try JSONPath("id"))
        _ = try walker.admit(Self.page([1, 2, 3, 4], next: "a"), from: nil)
        // Two rows inserted above: the next page starts with the last two of the one before.
        let second = try walker.admit(Self.page([3, 4, 5, 6], next: "b"), from: "a")
        #expect(Self.ids(second) == [5, 6])
    }

    @Test func aRepeatFromTwoPagesBackIsDropped() throws {
        let walker = PageWalker<JSONValue>(keyPath: try JSONPath("id"))
        _ = try walker.admit(Self.page([1, 2, 3], next: "a"), from: nil)
        _ = try walker.admit(Self.page([4, 5, 6], next: "b"), from: "a")
        let third = try walker.admit(Self.page([3, 6, 7], next: "c"), from: "b")
        #expect(Self.ids(third) == [7])
    }

    /// The documented limit: a key last seen three pages back is no longer known, so its row is shown again.
    @Test func aRepeatFromThreePagesBackIsShown() throws {
        let walker = PageWalker<JSONValue>(keyPath: try JSONPath("id"))
        _ = try walker.admit(Self.page([1, 2], next: "a"), from: nil)
        _ = try walker.admit(Self.page([3, 4], next: "b"), from: "a")
        _ = try walker.admit(Self.page([5, 6], next: "c"), from: "b")
        let fourth = try walker.admit(Self.page([1, 7], next: "d"), from: "c")
        #expect(Self.ids(fourth) == [1, 7])
    }

    @Test func aRepeatWithinOnePageIsDropped() throws {
        let walker = PageWalker<JSONValue>(keyPath: try JSONPath("id"))
        let first = try walker.admit(Self.page([1, 2, 1, 3, 2], next: "a"), from: nil)
        #expect(Self.ids(first) == [1, 2, 3])
    }

    /// A page with nothing to drop is passed on as it came: its items are the very array the page cache holds, so
    /// viewers reading one cached page share the rows made from it (RowstreamKit's `RecentBatches`, issue 17).
    @Test func aPageWithNothingToDropKeepsItsOwnItemsArray() throws {
        let walker = PageWalker<JSONValue>(keyPath: try JSONPath("id"))
        let page = Self.page([1, 2, 3], next: "a")
        let fresh = try walker.admit(page, from: nil)
        #expect(Self.ids(fresh) == [1, 2, 3])
        let same = fresh.items.withUnsafeBufferPointer { a in page.items.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
        #expect(same, "the page's own items array, not a copy")
        // With a repeat, the kept items (in order) in an array of their own; the cached page is untouched.
        let next = Self.page([3, 4, 3, 5], next: "b")
        #expect(Self.ids(try walker.admit(next, from: "a")) == [4, 5])
        #expect(Self.ids(next) == [3, 4, 3, 5])
    }

    /// A table's walks share one hash key: two viewers reading the same page carry equal windows (so equal positions,
    /// sealed once and shared by RowstreamKit), where walks with keys of their own differ.
    @Test func walksWithOneHashKeyCarryEqualWindowsOverTheSamePage() throws {
        let key = WalkHashKey.random()
        let path = try JSONPath("id")
        let walkers = [PageWalker<JSONValue>(keyPath: path, hashKey: key), PageWalker<JSONValue>(keyPath: path, hashKey: key)]
        for walker in walkers { _ = try walker.admit(Self.page([1, 2, 3], next: "a"), from: nil) }
        #expect(walkers[0].window == walkers[1].window)
        let own = PageWalker<JSONValue>(keyPath: try JSONPath("id"))
        _ = try own.admit(Self.page([1, 2, 3], next: "a"), from: nil)
        #expect(own.window != walkers[0].window)
    }

    @Test func keysOfDifferentTypesAreDifferent() throws {
        let walker = PageWalker<JSONValue>(keyPath: try JSONPath("id"))
        _ = try walker.admit(UpstreamPage<JSONValue>(items: [["id": .int(1)]], nextCursor: "a"), from: nil)
        let second = try walker.admit(UpstreamPage<JSONValue>(items: [["id": .string("1")], ["id": .int(1)]], nextCursor: nil), from: "a")
        #expect(second.items.count == 1)
        #expect(second.items.first?["id"] == .string("1"))
    }

    @Test func cursorsAreHeldAsOneHashEach() throws {
        let walker = PageWalker<JSONValue>(keyPath: try JSONPath("id"))
        _ = try walker.admit(Self.page([1], next: "a"), from: nil)
        for index in 0..<30 {
            _ = try walker.admit(Self.page([index + 2], next: "c\(index)"), from: index == 0 ? "a" : "c\(index - 1)")
        }
        #expect(walker.held.cursors == 30)
        #expect(throws: UpstreamError.invalidPage("the upstream's next cursor repeats an earlier one (a loop)")) {
            _ = try walker.admit(Self.page([99], next: "c3"), from: "c29")
        }
    }
}
