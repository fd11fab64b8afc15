import JSON
import Locking
import TestSupport
import Testing
@testable import Upstream

/// Many viewers, one upstream: coalescing, the TTL cache and prefetch. In-process (`InProcessUpstream`): no socket.
@Suite struct PageCacheTests {
    static func source(_ upstream: InProcessUpstream, cache: PageCache<JSONValue>) throws -> PageSource<JSONValue> {
        PageSource<JSONValue>(client: upstream, template: PageRequestTemplate(url: upstream.baseURL + "/i"),
                              itemsPath: try JSONPath("data"),
                                     style: .cursor(parameter: "cursor", nextCursorPath: try JSONPath("next")), cache: cache)
    }

    static let api: @Sendable (FixtureRequest) -> FixtureReply = { request in
        let next = request.query["cursor"] == nil ? "\"p1\"" : "null"
        return .json("{\"data\":[{\"id\":1}],\"next\":\(next)}")
    }

    @Test func concurrentRequestsForOnePageShareOneFetch() async throws {
        // The upstream holds its reply until every request has either started a fetch or joined one: no clock
        // decides whether the eight overlap.
        let gate = ReplyGate()
        let server = InProcessUpstream { .held(gate, Self.api($0)) }
        defer { server.stop() }
        let cache = PageCache<JSONValue>(ttl: .zero, prefetch: false)
        let source = try Self.source(server, cache: cache)

        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { try await source.fetchPage(cursor: nil).items.count } }
            let statistics = { cache.statistics }
            #expect(await eventually { statistics().fetches + statistics().hits == 8 && gate.waiting >= 1 })
            gate.releaseAll()
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(counts == Array(repeating: 1, count: 8))
        #expect(server.requests.count == 1)
        #expect(cache.statistics.fetches == 1)
    }

    /// Runs `body` with a source over ``api`` whose pages a cache keeps for a minute (no prefetch).
    static func withCachedSource(_ body: (InProcessUpstream, PageCache<JSONValue>, PageSource<JSONValue>) async throws -> Void) async throws {
        let server = InProcessUpstream(handler: Self.api)
        defer { server.stop() }
        let cache = PageCache<JSONValue>(ttl: .seconds(60), prefetch: false)
        try await body(server, cache, try Self.source(server, cache: cache))
    }

    /// The very items array the cache holds (the shared-batch caches key on its identity).
    @Test func aFreshPageIsServedFromMemory() async throws {
        try await Self.withCachedSource { server, cache, source in
            let first = try await source.fetchPage(cursor: nil).items
            let again = try await source.fetchPage(cursor: nil).items

            #expect(server.requests.count == 1)
            #expect(cache.statistics.hits == 1)
            #expect(first.withUnsafeBufferPointer { $0.baseAddress } == again.withUnsafeBufferPointer { $0.baseAddress })
        }
    }

    @Test func theNextPageIsPrefetched() async throws {
        let server = InProcessUpstream(handler: Self.api)
        defer { server.stop() }
        let source = try Self.source(server, cache: PageCache<JSONValue>(ttl: .seconds(60), prefetch: true))

        let first = try await source.fetchPage(cursor: nil)
        #expect(await eventually { server.requests.count == 2 }, "the next page was asked for ahead of demand")
        _ = try await source.fetchPage(cursor: first.nextCursor)

        #expect(server.requests.map { $0.query["cursor"] } == [nil, "p1"])
    }

    @Test func failuresAreNotCached() async throws {
        let calls = Tally()
        let server = InProcessUpstream { _ in calls.next() == 1 ? .json("{}", status: 500) : .json("{\"data\":[]}") }
        defer { server.stop() }
        let source = try Self.source(server, cache: PageCache<JSONValue>(ttl: .seconds(60), prefetch: false))

        await #expect(throws: UpstreamError.httpStatus(500)) { try await source.fetchPage(cursor: nil) }
        #expect(try await source.fetchPage(cursor: nil).items.isEmpty)
    }
}

extension PageCacheTests {
    @Test func aCancelledWaiterStopsWaitingWhileTheFetchGoesOn() async throws {
        let server = InProcessUpstream { _ in .hang }
        defer { server.stop() }
        let cache = PageCache<JSONValue>(ttl: .seconds(60), prefetch: false)
        let source = try Self.source(server, cache: cache)

        let waiter = Task { () -> UpstreamError? in
            do throws(UpstreamError) { _ = try await source.fetchPage(cursor: nil); return nil } catch { return error }
        }
        #expect(await eventually { server.requests.count == 1 }, "the fetch started")
        waiter.cancel()

        #expect(await waiter.value == .cancelled)
        #expect(cache.statistics.fetches == 1)
    }
}

extension PageCacheTests {
    /// A fresh page is answered on the caller's thread, without a task or a wait: a load started with
    /// `Task.immediate` (a viewer's first batch, issue 17) gets it before `Task.immediate` returns. A page still
    /// being fetched is waited for as before.
    @Test func aFreshPageIsAnsweredWithoutSuspending() async throws {
        try await Self.withCachedSource { server, cache, source in
            let missed = Answer()
            Self.startImmediately { missed.set(try? await source.fetchPage(cursor: nil).items.count) }
            #expect(await eventually { missed.value != nil }, "the first fetch")
            #expect(server.requests.count == 1)

            let hit = Answer()
            Self.startImmediately { hit.set(try? await source.fetchPage(cursor: nil).items.count) }
            #expect(hit.value == 1, "a fresh page was answered before Task.immediate returned")
            #expect(cache.statistics.hits == 1)
            #expect(server.requests.count == 1)
        }
    }

    @Test func aCancelledCallerOfAFreshPageGetsCancelled() async throws {
        try await Self.withCachedSource { _, _, source in
            _ = try await source.fetchPage(cursor: nil)
            let cancelled = Task { () -> UpstreamError? in
                withUnsafeCurrentTask { $0?.cancel() }
                do throws(UpstreamError) { _ = try await source.fetchPage(cursor: nil); return nil } catch { return error }
            }
            #expect(await cancelled.value == .cancelled)
        }
    }

    /// Runs `body` in a task started on this thread (`Task.immediate`): up to its first suspension, before this returns.
    static func startImmediately(_ body: @escaping @Sendable () async -> Void) {
        Task.immediate { await body() }
    }

    /// One answer, set from a task. Thread-safe.
    final class Answer: Sendable {
        private let state = Lock<Int?>(nil)
        func set(_ value: Int?) { state.withLock { $0 = value ?? -1 } }
        var value: Int? { state.withLock { $0 } }
    }
}
