import Redis
import RowstreamKit

extension RedisLiveChannel {
    /// The table's refresh bucket for the whole cluster: one Redis key, `{PREFIX NAME}:refresh`, holding the
    /// bucket's GCRA instant (as ``RefreshLimit``'s per-instance bucket does, on Redis's clock), taken atomically by
    /// ``bucketScript``. Every instance's POSTs draw on it, so the limit holds for the cluster, not per instance.
    /// A Redis error throws: the instance's own bucket decides then.
    func takeRefreshToken(_ limit: RefreshLimit) async throws -> Duration? {
        let every = max(1, limit.every.components.seconds * 1_000_000 + limit.every.components.attoseconds / 1_000_000_000_000)
        let reply = try await client.run(Self.bucketScript, keys: [bucket], arguments: [
            RedisArgument(limit.burst), RedisArgument(String(every)),
        ])
        guard let wait = reply.integer else { throw RedisError.unexpectedReply("refresh bucket") }
        // Never longer than an honest bucket can make anyone wait (a value written by someone else is reset by the script).
        return wait <= 0 ? nil : min(.microseconds(wait), limit.every * limit.burst)
    }

    /// Takes a token of the bucket KEYS[1] (GCRA): ARGV[1] tokens at once, one more every ARGV[2] microseconds, on
    /// Redis's own clock (`TIME`: one clock for every instance). Returns 0 when one was there (and records it), else
    /// the microseconds until the next. An instant no honest bucket holds (unreadable, or further ahead than a full
    /// burst from now: someone else wrote it) counts as a full bucket, so a Redis writer cannot stop refreshes for
    /// longer than the limit itself does. The key expires once the bucket is full again.
    static let bucketScript = RedisScript("""
        local time = redis.call('TIME')
        local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
        local burst = tonumber(ARGV[1])
        local every = tonumber(ARGV[2])
        local arrival = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
        if arrival < now or arrival > now + every * burst then arrival = now end
        local wait = arrival - every * (burst - 1) - now
        if wait > 0 then return wait end
        arrival = arrival + every
        redis.call('SET', KEYS[1], string.format('%.0f', arrival), 'PX', math.ceil((arrival - now) / 1000) + 1000)
        return 0
        """)
}
