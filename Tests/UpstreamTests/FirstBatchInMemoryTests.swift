import JSON
import Testing
@testable import Upstream

/// A walk's first batch from memory (issue 29, arrivals): when the page cache holds the first page fresh, a fresh walk
/// takes it now, with no suspension, and gets exactly what ``PageWalker/nextBatch(from:at:)`` gives (items, next
/// position with its key window, total), nothing fetched; when the cache does not hold it, nil, and the walk loads it
/// as before. The walk that took it goes on from its position as any other.
@Suite struct FirstBatchInMemoryTests {
    static func walker(_ key: WalkHashKey, _ hashes: PageKeyHashes) throws -> PageWalker<JSONValue> {
        PageWalker<JSONValue>(keyPath: try JSONPath("id"), hashKey: key, pageHashes: hashes)
    }

    @Test func aCachedFirstPageIsTheWalksFirstBatchAtOnce() async throws {
        let server = InProcessUpstream(handler: StyleAPI.offset(count: 25))
        defer { server.stop() }
        var template = PageRequestTemplate(url: server.baseURL + "/items")
        template.pageSize = 10
        template.limitParameter = "limit"
        let cache = PageCache<JSONValue>(ttl: .seconds(3_600), prefetch: false)
        let source = PageSource<JSONValue>(client: server, template: template, itemsPath: try JSONPath("results"),
                                           style: .offset(parameter: "offset", end: .total(try JSONPath("total"))),
                                           cache: cache)
        let key = WalkHashKey.random(), hashes = PageKeyHashes(key: key)

        let first = try Self.walker(key, hashes)
        #expect(first.firstBatchInMemory(from: source) == nil, "nothing cached yet")
        #expect(server.requests.isEmpty, "asking fetches nothing")
        let loaded = try await first.nextBatch(from: source, at: nil)
        #expect(server.requests.count == 1)

        let second = try Self.walker(key, hashes)
        let hitsBefore = cache.statistics.hits
        let taken = try #require(second.firstBatchInMemory(from: source))
        #expect(server.requests.count == 1, "from memory")
        #expect(cache.statistics.hits == hitsBefore + 1)
        #expect(taken.total == 25 && taken.total == loaded.total)
        guard case .items(let items, let next?) = taken.batch, case .items(let loadedItems, let loadedNext?) = loaded.batch else {
            Issue.record("expected a batch with a next position: \(taken.batch)")
            return
        }
        #expect(items == loadedItems && items.count == 10)
        #expect(next == loadedNext, "the same next position, key window included")
        let thirdWalker = try Self.walker(key, hashes)
        let samePage = thirdWalker.firstBatchInMemory(from: source).map { $0.page === taken.page } ?? false
        #expect(samePage, "one cached page, one identity")
        // Each goes on from its own position to the same second batch.
        let afterFirst = try await first.nextBatch(from: source, at: loadedNext)
        let afterSecond = try await second.nextBatch(from: source, at: next)
        guard case .items(let one, _) = afterFirst.batch, case .items(let two, _) = afterSecond.batch else {
            Issue.record("expected second batches")
            return
        }
        #expect(one == two && one.count == 10)
    }
}
