import Glibc

extension SharedPages {
    /// A page from the shared level: how it went, and how old the page already is (zero when fetched now).
    struct Outcome<Item: Sendable>: Sendable {
        var result: Result<UpstreamPage<Item>, UpstreamError>
        var age: Duration = .zero
    }

    /// The page after `cursor`, for a local miss (each instance asks once per page: its cache coalesces):
    ///
    /// 1. found in the store: that page;
    /// 2. else whoever takes the fetch lease looks once more (it may have landed meanwhile), then fetches with
    ///    `load`, stores the page for `ttl` and announces it;
    /// 3. an instance that does not get the lease waits for the landing and reads it; woken without a page (the
    ///    holder failed, or the store's connection changed) or after ``leaseTime`` (the holder died: its lease
    ///    lapsed) it tries the lease again. Past ``maxWait`` (a holder that keeps renewing) it fetches itself.
    ///
    /// A store that is unavailable or fails before the fetch makes it fetch with `load` at once (``Event/fallback``);
    /// once fetched, store failures are ignored. So the store never turns into a viewer's error.
    /// A page read from the store has its items read by `reader`.
    func load<Item>(_ cursor: String?, ttl: Duration, reader: ItemReader<Item>,
                    load: PageCache<Item>.Load) async -> Outcome<Item> {
        guard store.isAvailable else {
            observer(.fallback)
            return Outcome(result: await load())
        }
        let pageKey = keys.page(cursor)
        let deadline = ContinuousClock.now + maxWait
        do throws(SharedStoreError) {
            if let found = try await look(pageKey, reader: reader) {
                observer(.hit)
                return found
            }
            observer(.miss)
            var waited = false
            while true {
                let token = Self.token()
                if try await takeLease(cursor, token: token) {
                    if let found = try await look(pageKey, reader: reader) {   // landed between the first look and the lease
                        try? await store.releaseLease(keys.lease(cursor), token: token)
                        return found
                    }
                    return await fetch(cursor, holding: token, ttl: ttl, load: load)
                }
                if !waited { observer(.leaseWait) }
                waited = true
                let now = ContinuousClock.now
                guard now < deadline else { break }
                let ticket = store.landings.expect(pageKey)
                defer { store.landings.forget(ticket) }
                if let found = try await look(pageKey, reader: reader) { return found }   // landed before the ticket was taken
                _ = await ticket.wait(within: min(leaseTime, deadline - now))
                if let found = try await look(pageKey, reader: reader) { return found }
            }
        } catch {
            observer(.fallback)
        }
        return Outcome(result: await load())
    }

    /// Takes the lease of `cursor`'s page for `token`. A call that fails may still have taken it (a command that
    /// timed out runs when the store catches up): it is released, best effort, rather than left to lapse.
    private func takeLease(_ cursor: String?, token: String) async throws(SharedStoreError) -> Bool {
        do {
            return try await store.takeLease(keys.lease(cursor), token: token, lifetime: leaseTime)
        } catch {
            Task { [store, keys] in try? await store.releaseLease(keys.lease(cursor), token: token) }
            throw error
        }
    }

    /// Fetches as the lease holder, then stores, releases and announces (each best effort).
    private func fetch<Item>(_ cursor: String?, holding token: String, ttl: Duration,
                             load: PageCache<Item>.Load) async -> Outcome<Item> {
        let pageKey = keys.page(cursor)
        let renewal = Task { [store, keys, leaseTime] in
            while !Task.isCancelled {
                try? await Task.sleep(for: leaseTime / 3)
                guard !Task.isCancelled else { return }
                _ = try? await store.renewLease(keys.lease(cursor), token: token, lifetime: leaseTime)
            }
        }
        let started = Self.unixMilliseconds()
        let result = await load()
        renewal.cancel()
        if case .success(let page) = result { await keep(page, at: cursor, ttl: ttl, startedAt: started) }
        try? await store.releaseLease(keys.lease(cursor), token: token)
        try? await store.announceLanding(of: pageKey)
        return Outcome(result: result)
    }

    /// Stores `page`, whose fetch started at `startedAt` (Unix ms, ``unixMilliseconds()`` read before the request
    /// went out), as `cursor`'s page for `ttl` (zero: ``handOverTime``), sealed to its key
    /// (``SharedPageKeys/sealed(_:at:)``), replacing what is there unless that is newer (a fetch started later:
    /// ``SharedPageOrder``); best effort. The one place a fetched page goes into the store: a lease holder's fetch,
    /// and a live refresh's (``PageCache/replace(_:load:)``).
    func keep<Item>(_ page: UpstreamPage<Item>, at cursor: String?, ttl: Duration, startedAt: UInt64) async {
        let value = SharedPageCodec.encode(page, fetchedAt: startedAt)
        guard value.count <= maxValueBytes else { return observer(.tooLarge) }
        let pageKey = keys.page(cursor)
        try? await store.store(keys.sealed(value, at: pageKey), at: pageKey, lifetime: ttl > .zero ? ttl : handOverTime)
    }

    /// The page stored at `key` and its age, or nil: absent, not bound to this key by this cluster's sealing key
    /// (``Event/unverified``: moved from another key, forged, or written under another key), or not a page
    /// (``Event/rejected``). Its next cursor goes upstream only once its tag verified.
    private func look<Item>(_ key: String, reader: ItemReader<Item>) async throws(SharedStoreError) -> Outcome<Item>? {
        guard let stored = try await store.value(at: key) else { return nil }
        guard stored.count <= maxValueBytes + SharedPageKeys.sealOverhead else {
            observer(.rejected)
            return nil
        }
        guard let value = keys.opened(stored, at: key) else {
            observer(.unverified)
            return nil
        }
        guard let (page, fetchedAt) = SharedPageCodec.decode(value, maxBytes: maxValueBytes, reader: reader) else {
            observer(.rejected)
            return nil
        }
        let age = Int64(clamping: Self.unixMilliseconds()) - Int64(clamping: fetchedAt)
        return Outcome(result: .success(page), age: .milliseconds(max(0, age)))
    }

    /// 128 random bits in hex: a lease holder's token.
    private static func token() -> String {
        var generator = SystemRandomNumberGenerator()
        let high: UInt64 = generator.next(), low: UInt64 = generator.next()
        return String(high, radix: 16) + "-" + String(low, radix: 16)
    }

    /// The wall clock (pages' ages are compared across instances).
    public static func unixMilliseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UInt64(max(0, now.tv_sec)) * 1000 + UInt64(max(0, now.tv_nsec)) / 1_000_000
    }
}
