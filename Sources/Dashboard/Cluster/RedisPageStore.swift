import Redis
import Upstream

/// The cluster's ``SharedPageStore`` on Redis: pages by `GET` and a `SET PX` only if the page there is not newer
/// (``storeIfNotNewer``, ``SharedPageOrder``), leases by `SET NX PX` and
/// compare-and-expire and compare-and-delete scripts, landing notices by `PUBLISH` to ``SharedPageKeys/landingChannel`` and one
/// subscription per instance that hands them to ``landings``. A subscription or health change (a lost connection,
/// a reconnect) signals every waiter, so none waits out a lease for a notice that was lost meanwhile.
///
/// Every command is bounded by the client's command timeout; a Redis error becomes a ``SharedStoreError`` (the
/// cache then falls back to its own memory and coalescing).
///
/// Thread-safe: the client and the landing board are; the subscription's events are read by one task of its own.
final class RedisPageStore: SharedPageStore {
    let client: RedisClient
    let landings = LandingBoard()
    private let subscription: RedisSubscription
    private let listener: Task<Void, Never>

    /// A store over `client`; `healthChanged` is told of each change of its health (on the client's loop thread:
    /// must not block).
    init(client: RedisClient, healthChanged: @escaping @Sendable (Bool) -> Void) {
        self.client = client
        let landings = landings
        let subscription = client.subscribe(to: [RedisArgument(SharedPageKeys.landingChannel)])
        self.subscription = subscription
        listener = Task {
            for await event in subscription.events {
                switch event {
                case .message(_, let payload): landings.land(String(decoding: payload, as: UTF8.self))
                case .subscribed, .disconnected: landings.landAll()
                }
            }
        }
        client.addHealthObserver { up in
            landings.landAll()
            healthChanged(up)
        }
    }

    var isAvailable: Bool { client.isAvailable }

    func value(at key: String) async throws(SharedStoreError) -> [UInt8]? {
        do { return try await client.get(RedisArgument(key)) } catch { throw Self.storeError(error) }
    }

    func store(_ value: [UInt8], at key: String, lifetime: Duration) async throws(SharedStoreError) {
        let milliseconds = max(1, lifetime.components.seconds * 1000 + lifetime.components.attoseconds / 1_000_000_000_000_000)
        do {
            _ = try await client.run(Self.storeIfNotNewer, keys: [RedisArgument(key)],
                                     arguments: [RedisArgument(value), RedisArgument(String(milliseconds))])
        } catch {
            throw Self.storeError(error)
        }
    }

    /// `SET KEYS[1] ARGV[1] PX ARGV[2]` unless the value there is newer (``SharedPageOrder/replaces(_:with:now:)``,
    /// on Redis's clock): 1 if set, else 0. Orders are read as numbers (Unix ms fit a Lua number exactly).
    static let storeIfNotNewer = RedisScript("""
        local function order(v)
          if #v < \(SharedPageOrder.range.upperBound) or string.byte(v, 1) ~= \(SharedPageOrder.sealFormat)
            or string.byte(v, \(SharedPageKeys.sealOverhead + 1)) ~= \(SharedPageOrder.pageFormat) then return nil end
          local n = 0
          for i = \(SharedPageOrder.range.lowerBound + 1), \(SharedPageOrder.range.upperBound) do n = n * 256 + string.byte(v, i) end
          return n
        end
        local old = redis.call('GET', KEYS[1])
        if old then
          local kept = order(old)
          local t = redis.call('TIME')
          local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
          if kept and kept <= now + \(SharedPageOrder.maxLead) and (order(ARGV[1]) or 0) < kept then return 0 end
        end
        redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
        return 1
        """)

    func takeLease(_ key: String, token: String, lifetime: Duration) async throws(SharedStoreError) -> Bool {
        do {
            return try await client.set(RedisArgument(key), to: RedisArgument(token), expiresIn: lifetime,
                                        onlyIfAbsent: true)
        } catch {
            throw Self.storeError(error)
        }
    }

    func renewLease(_ key: String, token: String, lifetime: Duration) async throws(SharedStoreError) -> Bool {
        do { return try await client.expireIfEqual(RedisArgument(key), to: RedisArgument(token), after: lifetime) } catch {
            throw Self.storeError(error)
        }
    }

    func releaseLease(_ key: String, token: String) async throws(SharedStoreError) {
        do { try await client.deleteIfEqual(RedisArgument(key), to: RedisArgument(token)) } catch {
            throw Self.storeError(error)
        }
    }

    func announceLanding(of key: String) async throws(SharedStoreError) {
        do { try await client.publish(RedisArgument(key), to: RedisArgument(SharedPageKeys.landingChannel)) } catch {
            throw Self.storeError(error)
        }
    }

    /// Ends the landing subscription and waits for its listener to read out what was already delivered (as the
    /// demand relay's `stop` does): a listener cancelled instead left those events in the stream's buffer at the
    /// process's exit, which LeakSanitizer reported from a drained instance (their payloads, parsed off Redis).
    func shutdown() async {
        subscription.cancel()   // no event after this; the listener's loop ends once it has read those before
        await listener.value
        await client.shutdown()
    }

    private static func storeError(_ error: RedisError) -> SharedStoreError {
        switch error {
        case .unavailable: .unavailable
        case .timedOut: .timedOut
        default: .failed(error.description)
        }
    }
}
