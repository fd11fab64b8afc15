import Locking

/// Many viewers, one upstream: concurrent requests for the same page share one fetch (coalescing), a fetched
/// page is served from memory for `ttl`, and the page after a demanded one can be prefetched into it.
///
/// With ``SharedPages`` a local miss goes on to a store the instances of a cluster share: one upstream fetch per
/// page for the whole cluster (docs/SCALING.md); without one, or while the store is down, this instance fetches.
///
/// Keyed by cursor (nil = first page). Failures are not cached. At most `capacity` pages are kept; expired ones
/// go first, then the oldest. A fresh page is answered from memory at once, on the caller's task. A fetch runs in
/// a task of its own, so a waiter that goes away (its task cancelled) stops waiting at once without cancelling the
/// fetch for the others (``FetchWaiters``).
///
/// A live refresh reads its page past the cache and puts it in with ``replace(_:load:)`` (the shared level's copy
/// too) before it returns, so before the refresh's changes go out; a fetch that was in flight when the refresh
/// replaced its entry does not overwrite the newer page when it lands. In a cluster, an instance told of a refresh
/// another one made drops its copy with ``drop(_:)``, so its next read goes to the shared level (which the refresh
/// updated) or the upstream.
///
/// Thread-safe: all state is in one `Lock`; fetches run outside it.
public final class PageCache<Item: Sendable>: Sendable {
    public typealias Load = @Sendable () async -> Result<UpstreamPage<Item>, UpstreamError>

    private enum Entry {
        /// A fetch in flight and its waiters; its number tells it from a later one for the same key
        /// (``store(_:key:age:fetch:)``).
        case loading(FetchWaiters<Item>, UInt64)
        case ready(UpstreamPage<Item>, expires: ContinuousClock.Instant)
    }

    /// Where a request's page comes from: memory, or a fetch (in flight, or started for it).
    private enum Answer {
        case fresh(UpstreamPage<Item>)
        case fetching(FetchWaiters<Item>)
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var order: [String] = []
        var fetches = 0
        var lastFetch: UInt64 = 0
        var hits = 0
    }

    /// How long a fetched page is served from memory.
    public let ttl: Duration
    /// Whether a demanded page's next page is fetched ahead.
    public let prefetch: Bool
    /// Most pages kept.
    public let capacity: Int
    /// The cluster's level under this one, if any.
    public let shared: SharedPages?
    private let state = Lock(State())

    /// A cache keeping pages for `ttl` (zero: coalescing only), prefetching if asked.
    public init(ttl: Duration, prefetch: Bool, capacity: Int = 256, shared: SharedPages? = nil) {
        self.ttl = ttl
        self.shared = shared
        self.prefetch = prefetch && ttl > .zero
        self.capacity = max(1, capacity)
    }

    /// Upstream fetches started, and requests answered without one (for tests and metrics).
    public var statistics: (fetches: Int, hits: Int) { state.withLock { ($0.fetches, $0.hits) } }

    /// The page for `cursor`: from memory if fresh (returned at once), else joined to the fetch in flight, else
    /// fetched by `load`. A cancelled caller gets `.cancelled` (a waiter at once); the fetch goes on for the others.
    /// `reader` reads a page from the shared level, if any.
    public func page(for cursor: String?, reader: ItemReader<Item>,
                     load: @escaping Load) async -> Result<UpstreamPage<Item>, UpstreamError> {
        switch answer(for: cursor, reader: reader, load: load) {
        case .fresh(let page):
            return Task.isCancelled ? .failure(.cancelled) : .success(page)
        case .fetching(let waiters):
            return await waiters.wait()
        }
    }

    /// The page for `cursor` if it is held fresh now (a hit, counted), else nil: nothing is fetched or joined.
    /// Returns at once (takes the lock only); any thread.
    public func freshPage(for cursor: String?) -> UpstreamPage<Item>? {
        let key = Self.key(cursor)
        let now = ContinuousClock.now
        return state.withLock { state -> UpstreamPage<Item>? in
            guard case .ready(let page, let expires)? = state.entries[key], expires > now else { return nil }
            state.hits += 1
            return page
        }
    }

    /// Starts fetching `cursor` into the cache unless it is there or on its way; returns at once.
    public func prefetch(_ cursor: String, reader: ItemReader<Item>, load: @escaping Load) {
        _ = answer(for: cursor, reader: reader, load: load)
    }

    private func answer(for cursor: String?, reader: ItemReader<Item>, load: @escaping Load) -> Answer {
        let key = Self.key(cursor)
        let now = ContinuousClock.now
        return state.withLock { state -> Answer in
            switch state.entries[key] {
            case .ready(let page, let expires)? where expires > now:
                state.hits += 1
                return .fresh(page)
            case .loading(let waiters, _)?:
                state.hits += 1
                return .fetching(waiters)
            default:
                break
            }
            state.lastFetch += 1
            let number = state.lastFetch
            let waiters = FetchWaiters<Item>()
            Task { [self] in
                let outcome = if let shared { await shared.load(cursor, ttl: ttl, reader: reader, load: load) }
                    else { SharedPages.Outcome(result: await load()) }
                store(outcome.result, key: key, age: outcome.age, fetch: number)
                waiters.finish(outcome.result)
            }
            state.fetches += 1
            insert(&state, key: key, .loading(waiters, number), now: now)
            return .fetching(waiters)
        }
    }

    /// A live refresh's page for `cursor`: fetched by `load` now, past the cache (never joined to a fetch in flight,
    /// never answered from memory), and on success kept for `ttl` in place of whatever the cache held for it, in the
    /// shared level first (``SharedPages/keep(_:at:ttl:startedAt:)``: only if no fetch that started later put one there), then here. Both are done when this returns, so a viewer
    /// who asks after it returned gets this page or a later one. A failure changes nothing.
    public func replace(_ cursor: String?, load: Load) async -> Result<UpstreamPage<Item>, UpstreamError> {
        state.withLock { $0.fetches += 1 }
        let started = SharedPages.unixMilliseconds()
        let result = await load()
        guard case .success(let page) = result, ttl > .zero else { return result }
        if let shared { await shared.keep(page, at: cursor, ttl: ttl, startedAt: started) }
        let key = Self.key(cursor)
        let now = ContinuousClock.now
        state.withLock { insert(&$0, key: key, .ready(page, expires: now + ttl), now: now) }
        return result
    }

    /// Forgets this instance's copy of `cursor`'s page (nil: the first), kept or on its way: the next request for it
    /// starts a fetch of its own (from the shared level, if any, else the upstream), and a fetch in flight keeps
    /// answering the requests that joined it but does not put its page in when it lands. The shared level's copy is
    /// left as it is. For a live table whose refresh another instance of the cluster made (and put in the shared
    /// level): called before this instance sends the refresh's changes, so a viewer who comes after them reads the
    /// refreshed page. Returns at once (takes the lock only); any thread.
    public func drop(_ cursor: String?) {
        let key = Self.key(cursor)
        state.withLock { state in
            guard state.entries.removeValue(forKey: key) != nil else { return }
            state.order.removeAll { $0 == key }
        }
    }

    /// Keeps fetch `number`'s page for what is left of `ttl` (a page from the shared level may be `age` old already),
    /// unless its entry was replaced meanwhile (by a refresh's newer page, or a later fetch) or dropped (``drop(_:)``,
    /// or evicted).
    private func store(_ result: Result<UpstreamPage<Item>, UpstreamError>, key: String, age: Duration, fetch number: UInt64) {
        let now = ContinuousClock.now
        state.withLock { state in
            guard case .loading(_, number)? = state.entries[key] else { return }
            if case .success(let page) = result, ttl > age {
                insert(&state, key: key, .ready(page, expires: now + ttl - age), now: now)
            } else {
                state.entries[key] = nil
                state.order.removeAll { $0 == key }
            }
        }
    }

    /// The entries' key of `cursor`'s page.
    private static func key(_ cursor: String?) -> String { cursor.map { "c" + $0 } ?? "first" }

    private func insert(_ state: inout State, key: String, _ entry: Entry, now: ContinuousClock.Instant) {
        if state.entries.updateValue(entry, forKey: key) == nil { state.order.append(key) }
        guard state.entries.count > capacity else { return }
        state.order.removeAll { key in
            if case .ready(_, let expires)? = state.entries[key], expires <= now {
                state.entries[key] = nil
                return true
            }
            return false
        }
        while state.entries.count > capacity, let oldest = state.order.first {
            state.order.removeFirst()
            state.entries[oldest] = nil
        }
    }
}

/// What a ``PageCache`` of any item type starts from.
public enum PageCacheDefaults {
    /// How long a page stays fresh unless a table's config says otherwise.
    public static let ttl: Duration = .seconds(5)
}
