import Foundation
import Redis
import RowstreamKit
import Locking
import Sealing
import Synchronization

/// Live tables shared through Redis (docs/SCALING.md, "Live tables across instances"): per table, under one hash
/// tag, the refresher lease `{PREFIX NAME}:lease`, the current head `{PREFIX NAME}:head` (a hash: epoch, seq, id,
/// rows), the log `{PREFIX NAME}:log` (a stream of published heads and refresh requests, trimmed to about
/// ``logLength`` entries) and the POSTed refreshes' rate limit `{PREFIX NAME}:refresh` (one bucket for the cluster).
/// Give the server one with ``ServerConfiguration/liveCluster``.
///
/// The rows in the head and in each log entry are bound to their table by a tag under the operator's ``StoreKey``
/// (`0x02` | HMAC-SHA-256 of the table's hash tag and the rows | the rows): rows a Redis writer forged, or copied
/// from another table's head (a table some viewers may not see), are read as none (the head) or skipped (a log
/// entry), counted in ``unverified``.
///
/// Thread-safe: immutable; the client is thread-safe.
package final class RedisLiveCluster: LiveCluster {
    let client: RedisClient
    let prefix: String
    /// How long a POST forwarded to a table's lease holder waits for its answer (``LiveChannel/forwardTimeout``).
    let forwardTimeout: Duration
    /// Binds each table's rows to it (the operator's: ``SealingKeys/storeKey``).
    let storeKey: StoreKey
    /// Heads and log entries whose rows did not verify (`rowstream_live_unverified_rows_total`).
    let unverified = Atomic<Int>(0)

    /// About how many entries each table's log keeps (`XADD MAXLEN ~`).
    static let logLength = 100
    /// A table's head and log go away after a day without a change (a table removed from the config leaves
    /// nothing behind for long; a table that changes again starts a new epoch).
    static let idleLifetimeMilliseconds = 86_400_000

    package init(client: RedisClient, storeKey: StoreKey, prefix: String = "rowstream:live:",
                 forwardTimeout: Duration = LiveClusterDefaults.forwardTimeout) {
        self.client = client
        self.storeKey = storeKey
        self.prefix = prefix
        self.forwardTimeout = forwardTimeout
    }

    package func channel(table: String) -> any LiveChannel {
        RedisLiveChannel(cluster: self, tag: "{\(prefix)\(table)}")
    }
}

/// One table's keys on Redis (``RedisLiveCluster``). The lease and head calls go through the client's pool; the
/// log is read with `XREAD BLOCK` on a connection of its own, made at the first read.
///
/// Thread-safe: the reading connection is made once under a `Lock`; the rest is immutable.
final class RedisLiveChannel: LiveChannel {
    let client: RedisClient
    let cluster: RedisLiveCluster
    /// The table's hash tag: what its rows are bound to.
    let tag: String
    let lease: RedisArgument
    let head: RedisArgument
    let log: RedisArgument
    /// The table's one refresh bucket for the cluster (RedisLiveChannel+RefreshBucket.swift).
    let bucket: RedisArgument
    let forwardTimeout: Duration
    private let reader = Lock<RedisDedicatedConnection?>(nil)

    /// How long one read of the log waits for an entry.
    static let block: Duration = .seconds(1)

    init(cluster: RedisLiveCluster, tag: String) {
        self.cluster = cluster
        self.tag = tag
        client = cluster.client
        forwardTimeout = cluster.forwardTimeout
        lease = RedisArgument(tag + ":lease")
        head = RedisArgument(tag + ":head")
        log = RedisArgument(tag + ":log")
        bucket = RedisArgument(tag + ":refresh")
    }

    var isAvailable: Bool { client.isAvailable }

    func holdLease(_ owner: String, for duration: Duration) async throws -> Bool {
        if try await client.expireIfEqual(lease, to: RedisArgument(owner), after: duration) { return true }
        return try await client.set(lease, to: RedisArgument(owner), expiresIn: duration, onlyIfAbsent: true)
    }

    func releaseLease(_ owner: String) async throws {
        try await client.deleteIfEqual(lease, to: RedisArgument(owner))
    }

    func head() async throws -> LiveHead? {
        let reply = try await client.send(["HMGET", head, "epoch", "seq", "id", "rows"])
        guard let fields = reply.elements, fields.count == 4 else { throw RedisError.unexpectedReply("HMGET") }
        guard let epoch = fields[0].string, let sequence = fields[1].string.flatMap(UInt64.init),
              let cursor = fields[2].string, let bytes = fields[3].bytes
        else { return nil }
        // Rows this version cannot read (another version wrote them) count as none: the holder's next head, which
        // each instance diffs against its own, replaces them, instead of the table staying unshared.
        let rows = opened(bytes).flatMap(LiveHeadRows.init(bytes:)) ?? LiveHeadRows(rows: [], isWholeList: false)
        return LiveHead(rows: rows, position: LiveHeadPosition(epoch: epoch, sequence: sequence, cursor: cursor))
    }

    func publish(_ rows: LiveHeadRows, answering requests: [String], owner: String, base: LiveHeadPosition?)
        async throws -> LiveHeadPosition? {
        let reply = try await client.run(Self.publishScript, keys: [lease, head, log], arguments: [
            RedisArgument(owner), RedisArgument(base?.epoch ?? ""), RedisArgument(String(base?.sequence ?? 0)),
            RedisArgument(UUID().uuidString), RedisArgument(sealed(rows.bytes)), RedisArgument(requests.joined(separator: ",")),
            RedisArgument(RedisLiveCluster.logLength), RedisArgument(RedisLiveCluster.idleLifetimeMilliseconds),
        ])
        if reply.isNull { return nil }
        guard let parts = reply.elements, parts.count == 3, let epoch = parts[0].string,
              let sequence = parts[1].string.flatMap(UInt64.init), let cursor = parts[2].string
        else { throw RedisError.unexpectedReply("live publish") }
        return LiveHeadPosition(epoch: epoch, sequence: sequence, cursor: cursor)
    }

    func requestRefresh(_ request: String) async throws {
        try await client.streamAdd(log, fields: [RedisStreamField("k", Array("r".utf8)), RedisStreamField("id", Array(request.utf8))],
                                   maxLength: RedisLiveCluster.logLength)
    }

    func read(after cursor: String?) async throws -> [LiveLogEntry] {
        let connection = reader.withLock { reader in
            if let reader { return reader }
            let connection = client.makeDedicatedConnection()
            reader = connection
            return connection
        }
        // The reply may take the block and then as long as any command may: a Redis (or host) that stalls for less
        // than the command timeout is not an outage. With a fixed second past the block, a busy machine made every
        // instance leave and rejoin, refreshing alone meanwhile.
        let batches = try await connection.streamRead([(key: log, after: cursor ?? "0-0")], count: 10, block: Self.block,
                                                      timeout: client.configuration.commandTimeout)
        return batches.flatMap(\.entries).map(entry)
    }

    /// A log entry as the feed reads it; one it cannot read (or whose rows do not verify) is skipped.
    func entry(_ entry: RedisStreamEntry) -> LiveLogEntry {
        let text = { (name: String) in entry.value(of: name).map { String(decoding: $0, as: UTF8.self) } }
        switch text("k") {
        case "c":
            guard let epoch = text("epoch"), let sequence = text("seq").flatMap(UInt64.init),
                  let rows = entry.value(of: "rows").flatMap(opened).flatMap(LiveHeadRows.init(bytes:))
            else { return .unreadable(cursor: entry.id) }
            let answers = (text("ans") ?? "").split(separator: ",").map(String.init)
            let position = LiveHeadPosition(epoch: epoch, sequence: sequence, cursor: entry.id)
            return .head(LiveHead(rows: rows, position: position), answers: answers)
        case "r":
            guard let request = text("id") else { return .unreadable(cursor: entry.id) }
            return .refreshRequest(request, cursor: entry.id)
        default:
            return .unreadable(cursor: entry.id)
        }
    }

    /// `rows` bound to this table under the cluster's store key.
    func sealed(_ rows: [UInt8]) -> [UInt8] {
        [Self.sealFormat] + cluster.storeKey.tag(message(rows[...])) + rows
    }

    /// The rows in `stored` if they were bound to this table under the cluster's store key; nil (counted) otherwise.
    func opened(_ stored: [UInt8]) -> [UInt8]? {
        let overhead = 1 + StoreKey.tagLength
        guard stored.count >= overhead, stored[0] == Self.sealFormat,
              cluster.storeKey.verifies(Array(stored[1..<overhead]), of: message(stored[overhead...]))
        else {
            cluster.unverified.add(1, ordering: .relaxed)
            return nil
        }
        return Array(stored[overhead...])
    }

    private func message(_ rows: ArraySlice<UInt8>) -> [UInt8] {
        Array("rowstream live rows v1\0\(tag)\0".utf8) + rows
    }

    /// The first byte of bound rows.
    static let sealFormat: UInt8 = 0x02

    /// Publishes a head once: only while ARGV[1] holds the lease (KEYS[1]) and the head (KEYS[2]) is still at the
    /// base (epoch ARGV[2], "" for none, and sequence ARGV[3]); a new epoch (ARGV[4]) when there is no head. Adds
    /// the entry to the log (KEYS[3], trimmed to about ARGV[7]) with the rows (ARGV[5]) and the requests it
    /// answers (ARGV[6]), records the head, keeps both for ARGV[8] ms, and returns {epoch, seq, id}; nil when
    /// refused.
    static let publishScript = RedisScript("""
        if redis.call('GET', KEYS[1]) ~= ARGV[1] then return false end
        local epoch = redis.call('HGET', KEYS[2], 'epoch')
        local seq = tonumber(redis.call('HGET', KEYS[2], 'seq') or '0')
        if epoch then
          if epoch ~= ARGV[2] or seq ~= tonumber(ARGV[3]) then return false end
        else
          if ARGV[2] ~= '' then return false end
          epoch = ARGV[4]
          seq = 0
        end
        seq = seq + 1
        local id = redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[7], '*', 'k', 'c', 'epoch', epoch,
          'seq', tostring(seq), 'rows', ARGV[5], 'ans', ARGV[6])
        redis.call('HSET', KEYS[2], 'epoch', epoch, 'seq', tostring(seq), 'id', id, 'rows', ARGV[5])
        redis.call('PEXPIRE', KEYS[2], ARGV[8])
        redis.call('PEXPIRE', KEYS[3], ARGV[8])
        return {epoch, tostring(seq), id}
        """)
}
