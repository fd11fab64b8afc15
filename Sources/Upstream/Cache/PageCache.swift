import Synchronization

/// Many viewers, one upstream: concurrent requests for the same page share one fetch (coalescing), a fetched
/// page is served from memory for `ttl`, and the page after a demanded one can be prefetched into it.
///
/// With ``SharedPages`` a local miss goes on to a store the instances of a cluster share: one upstream fetch per
/// page for the whole cluster (docs/SCALING.md); without one, or while the store is down, this instance fetches.
///
/// Keyed by cursor (nil = first page). Failures are not cached. At most `capacity` pages are kept; expired ones
/// go first, then the oldest. A fetch runs in a task of its own, so a waiter that goes away (its task cancelled)
/// stops waiting at once without cancelling the fetch for the others.
///
/// Thread-safe: all state is in one `Mutex`; fetches run outside it.
public final class PageCache: Sendable {
    public typealias Load = @Sendable () async -> Result<UpstreamPage, UpstreamError>
    private typealias Fetch = Task<Result<UpstreamPage, UpstreamError>, Never>

    private enum Entry {
        case loading(Fetch)
        case ready(UpstreamPage, expires: ContinuousClock.Instant)
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var order: [String] = []
        var fetches = 0
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
    private let state = Mutex(State())

    /// A cache keeping pages for `ttl` (zero: coalescing only), prefetching if asked.
    /// How long a page stays fresh unless a table's config says otherwise.
    public static let defaultTTL: Duration = .seconds(5)

    public init(ttl: Duration, prefetch: Bool, capacity: Int = 256, shared: SharedPages? = nil) {
        self.ttl = ttl
        self.shared = shared
        self.prefetch = prefetch && ttl > .zero
        self.capacity = max(1, capacity)
    }

    /// Upstream fetches started, and requests answered without one (for tests and metrics).
    public var statistics: (fetches: Int, hits: Int) { state.withLock { ($0.fetches, $0.hits) } }

    /// The page for `cursor`: from memory if fresh, else joined to the fetch in flight, else fetched by `load`.
    /// A cancelled caller stops waiting at once (`.cancelled`); the fetch goes on for the others.
    ///
    /// A fresh page is answered without suspending: no task and no wait, so a caller started on its own thread
    /// (a viewer's first load, `Task.immediate`) gets it there (issue 17, arrivals).
    public func page(for cursor: String?, load: @escaping Load) async -> Result<UpstreamPage, UpstreamError> {
        if let page = freshPage(for: cursor) {
            return Task.isCancelled ? .failure(.cancelled) : .success(page)
        }
        return await SharedFetchWait.value(of: fetch(for: cursor, load: load))
    }

    /// The page for `cursor` if it is in memory and fresh (counted as a hit), else nil.
    func freshPage(for cursor: String?) -> UpstreamPage? {
        let key = Self.key(cursor)
        let now = ContinuousClock.now
        return state.withLock { state -> UpstreamPage? in
            guard case .ready(let page, let expires)? = state.entries[key], expires > now else { return nil }
            state.hits += 1
            return page
        }
    }

    private static func key(_ cursor: String?) -> String { cursor.map { "c" + $0 } ?? "first" }

    /// Starts fetching `cursor` into the cache unless it is there or on its way; returns at once.
    public func prefetch(_ cursor: String, load: @escaping Load) {
        _ = fetch(for: cursor, load: load)
    }

    private func fetch(for cursor: String?, load: @escaping Load) -> Fetch {
        let key = Self.key(cursor)
        let now = ContinuousClock.now
        return state.withLock { state -> Fetch in
            switch state.entries[key] {
            case .ready(let page, let expires)? where expires > now:
                state.hits += 1
                return Fetch { .success(page) }
            case .loading(let fetch)?:
                state.hits += 1
                return fetch
            default:
                break
            }
            let fetch = Fetch { [self] in
                let outcome = if let shared { await shared.load(cursor, ttl: ttl, load: load) }
                    else { SharedPages.Outcome(result: await load()) }
                store(outcome.result, key: key, age: outcome.age)
                return outcome.result
            }
            state.fetches += 1
            insert(&state, key: key, .loading(fetch), now: now)
            return fetch
        }
    }

    /// Keeps a fetched page for what is left of `ttl` (a page from the shared level may be `age` old already).
    private func store(_ result: Result<UpstreamPage, UpstreamError>, key: String, age: Duration) {
        let now = ContinuousClock.now
        state.withLock { state in
            if case .success(let page) = result, ttl > age {
                insert(&state, key: key, .ready(page, expires: now + ttl - age), now: now)
            } else {
                state.entries[key] = nil
                state.order.removeAll { $0 == key }
            }
        }
    }

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
