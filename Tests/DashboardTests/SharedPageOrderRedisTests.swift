@testable import Dashboard
import JSON
import Locking
import Redis
import Sealing
import TestSupport
import Testing
import Upstream

/// The ordering rule of shared page writes (docs/SCALING.md, "Shared page cache and single-flight") on a real
/// redis-server: three instances (a `PageCache` over its own `RedisPageStore` and Redis client each) share one table.
/// A's first-page fetch is held at the upstream; B's live refresh of that page runs to completion; A's fetch lands
/// after it. Redis and a third instance keep B's newer page. A value dated far ahead (forged) pins nothing.
@Suite("Shared page writes: the newer page stays (Redis)", .serialized)
struct SharedPageOrderRedisTests {
    /// One instance: its cache and the store (and client) under it.
    struct Instance {
        let cache: PageCache<JSONValue>
        let store: RedisPageStore
    }

    static func instance(_ redis: RedisProcess, keys: SharedPageKeys) throws -> Instance {
        let client = try RedisClient(configuration: RedisConfiguration(address: .unix(path: redis.socket)))
        let store = RedisPageStore(client: client) { _ in }
        let cache = PageCache<JSONValue>(ttl: .seconds(600), prefetch: false, shared: SharedPages(store: store, keys: keys))
        return Instance(cache: cache, store: store)
    }

    static func page(_ name: String) -> UpstreamPage<JSONValue> {
        UpstreamPage(items: [["id": 1, "name": .string(name)]], nextCursor: nil)
    }

    /// The names in `result`'s page.
    static func names(_ result: Result<UpstreamPage<JSONValue>, UpstreamError>) -> [String] {
        guard case .success(let page) = result else { return ["failed: \(result)"] }
        return page.items.map { $0["name"]?.stringValue ?? "?" }
    }

    /// The names in the page stored at `key`, read as an instance reads it.
    static func stored(_ instance: Instance, _ keys: SharedPageKeys, _ key: String) async throws -> [String] {
        let bytes = try #require(try await instance.store.client.get(RedisArgument(key)))
        let value = try #require(keys.opened(bytes, at: key))
        let decoded = try #require(SharedPageCodec.decode(value, maxBytes: 1 << 20, reader: .json))
        return decoded.page.items.map { $0["name"]?.stringValue ?? "?" }
    }

    @Test("a first-page fetch that started before a refresh but lands after it: Redis and another instance keep the refresh's page")
    func anOlderFetchNeverOverwritesARefresh() async throws {
        let redis = try await RedisProcess.start()
        let keys = SharedPageKeys(table: "t", scope: [1], storeKey: SealingKeys.random().storeKey)
        let a = try Self.instance(redis, keys: keys), b = try Self.instance(redis, keys: keys)
        let c = try Self.instance(redis, keys: keys)
        let pageKey = keys.page(nil)
        do {
            #expect(await eventually { [a, b, c].allSatisfy { $0.store.isAvailable } })

            // A's fetch of the first page (it takes the lease) is held at the upstream with the old head.
            let started = Lock<UInt64?>(nil)
            let (release, releaser) = AsyncStream<Void>.makeStream()
            let fetch = Task {
                await a.cache.page(for: nil, reader: .json) {
                    started.withLock { $0 = SharedPages.unixMilliseconds() }
                    for await _ in release { break }
                    return .success(Self.page("old head"))
                }
            }
            #expect(await eventually { started.withLock { $0 } != nil })
            // A refresh that starts after it (a later millisecond: the order's unit) and finishes before it lands.
            let heldSince = try #require(started.withLock { $0 })
            #expect(await eventually { SharedPages.unixMilliseconds() > heldSince })
            let refreshed = await b.cache.replace(nil) { .success(Self.page("new head")) }
            #expect(Self.names(refreshed) == ["new head"])
            #expect(try await Self.stored(a, keys, pageKey) == ["new head"])

            // A's fetch lands: its viewer gets what it fetched, but Redis keeps the newer page.
            releaser.yield()
            releaser.finish()
            #expect(Self.names(await fetch.value) == ["old head"])
            #expect(try await Self.stored(a, keys, pageKey) == ["new head"], "the older fetch overwrote the refresh")

            // Another instance, within the TTL, reads the refresh's page from Redis (no fetch of its own).
            let fetchedByC = Lock(0)
            let onC = await c.cache.page(for: nil, reader: .json) {
                fetchedByC.withLock { $0 += 1 }
                return .success(Self.page("fetched by C"))
            }
            #expect(Self.names(onC) == ["new head"])
            #expect(fetchedByC.withLock { $0 } == 0)

            // A value dated an hour ahead (forged, or a clock far off) does not pin the key: a write replaces it.
            let ahead = SharedPages.unixMilliseconds() + 3_600_000
            let forged = keys.sealed(SharedPageCodec.encode(Self.page("from the future"), fetchedAt: ahead), at: pageKey)
            try await a.store.client.set(RedisArgument(pageKey), to: RedisArgument(forged), expiresIn: .seconds(600))
            _ = await b.cache.replace(nil) { .success(Self.page("newest head")) }
            #expect(try await Self.stored(a, keys, pageKey) == ["newest head"])
        } catch {
            Issue.record(error)
        }
        for instance in [a, b, c] { await instance.store.shutdown() }
        await redis.stop()
    }
}
