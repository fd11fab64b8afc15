import Foundation
@testable import Dashboard
import HTTPServerTesting
import Redis
import RowstreamKit
import Locking
import Synchronization
import TestSupport
import Testing

/// A live table on three servers in this process sharing a real `redis-server` (on a unix socket, stopped by PID):
/// one upstream refresh at a time for the cluster, each change reaches the viewers of every instance once, the
/// lease moves when the refresher's server stops, and with Redis killed every instance refreshes alone without a
/// viewer seeing an error. The upstream is a counting source whose refresh fetches the test releases (`ReplyGate`).
@Suite("Live tables on Redis", .serialized)
struct RedisLiveClusterTests {
    /// One row of the fixture upstream.
    struct Item: Sendable {
        let key: String
        let name: String
    }

    /// The fixture upstream: its items, and the gate its refresh fetches pass once `gating` (the viewers' first
    /// batches pass freely before). Thread-safe: `Lock` and atomics.
    final class Upstream: Sendable {
        let items = Lock((1...6).map { Item(key: "k\($0)", name: "Item \($0)") })
        let gate = ReplyGate()
        let gating = Atomic<Bool>(false)

        func rename(_ index: Int, _ name: String) {
            items.withLock { $0[index] = Item(key: $0[index].key, name: name) }
        }

        /// The live table (refreshed every second) over this upstream.
        var table: TableBinding {
            let source = BatchSource<Item, Int>(initialToken: 0) { [self] (_: Int) in
                if gating.load(ordering: .relaxed) { guard await gate.pass() else { throw CancellationError() } }
                return .completed(items.withLock { $0 })
            }
            var binding = TableBinding(name: "live", title: "Live", columns: [TableColumn("Name")], batchSize: 6,
                                       source: source) { item, row in
                row.key = item.key
                row.text(item.name)
            }
            binding.live = LiveUpdates(every: .seconds(1))
            return binding
        }
    }

    /// A logger that keeps its lines. Thread-safe: one `Lock`.
    final class Lines: RowstreamLogger {
        let lines = Lock<[String]>([])
        func log(_ level: RowstreamLogLevel, _ message: String) { lines.withLock { $0.append(message) } }
        func count(containing text: String) -> Int { lines.withLock { $0.count { $0.contains(text) } } }
    }

    /// A server of the cluster on 127.0.0.1 port 0, with its own Redis client, logging to `logger`.
    static func instance(_ upstream: Upstream, redis: RedisServerProcess, logger: Lines = Lines(), dies: Bool = false)
        throws -> RowstreamServer {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.eventLoopCount = 1
        configuration.logger = logger
        // The holder's answer to a forwarded POST may be slow on a loaded machine (a sanitized run, 8 tests at once).
        let cluster = RedisLiveCluster(client: try testClient(redis.socketPath), storeKey: testStoreKey,
                                       forwardTimeout: LiveClusterDefaults.forwardTimeout * TestTime.scale)
        configuration.liveCluster = dies ? Dying(cluster) : cluster
        return try RowstreamServer.start([upstream.table], configuration: configuration)
    }

    /// A flag another task sets. Thread-safe: atomic.
    final class Flag: Sendable {
        let value = Atomic<Bool>(false)
    }

    /// A cluster whose instance dies rather than stops: it never gives its lease back (a `kill -9`).
    struct Dying: LiveCluster {
        let cluster: RedisLiveCluster
        init(_ cluster: RedisLiveCluster) { self.cluster = cluster }

        func channel(table: String) -> any LiveChannel { Channel(inner: cluster.channel(table: table)) }

        struct Channel: LiveChannel {
            let inner: any LiveChannel
            var isAvailable: Bool { inner.isAvailable }
            func holdLease(_ owner: String, for duration: Duration) async throws -> Bool {
                try await inner.holdLease(owner, for: duration)
            }
            func releaseLease(_ owner: String) async throws {}
            func head() async throws -> LiveHead? { try await inner.head() }
            func publish(_ head: LiveHeadRows, answering requests: [String], owner: String, base: LiveHeadPosition?)
                async throws -> LiveHeadPosition? {
                try await inner.publish(head, answering: requests, owner: owner, base: base)
            }
            func requestRefresh(_ request: String) async throws { try await inner.requestRefresh(request) }
            func read(after cursor: String?) async throws -> [LiveLogEntry] { try await inner.read(after: cursor) }
            var forwardTimeout: Duration { inner.forwardTimeout }
        }
    }

    /// The ports of `servers` whose instance holds the table's lease.
    static func holders(_ ports: [Int]) async throws -> [Int] {
        var held: [Int] = []
        for port in ports where try await metric("rowstream_live_leases_held", port: port) == 1 { held.append(port) }
        return held
    }

    /// Two viewers on each of `servers`, each past its first batch.
    static func viewers(_ servers: [RowstreamServer]) async throws -> [[SSEClient]] {
        var viewers: [[SSEClient]] = []
        for server in servers {
            var two: [SSEClient] = []
            for _ in 0..<2 {
                let viewer = try await SSEClient(port: server.port, path: "/tables/live/stream")
                #expect(rowKeys(try await viewer.next(named: "rows").event.data).count == 6)
                two.append(viewer)
            }
            viewers.append(two)
        }
        return viewers
    }

    /// A metric without labels from `/metrics` (0 when absent).
    static func metric(_ name: String, port: Int) async throws -> Int {
        let text = try await fetch(port, "GET", "/metrics").body
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Double($0.split(separator: " ")[1]) }.map { Int($0) } ?? 0
    }

    /// Reads each viewer's next `update` event: true if every one is the change named `name`, with no error or
    /// reset before it. A viewer that gets nothing fails with the change's name, the viewer's place and `loggers`' lines.
    static func everyViewerGets(_ name: String, _ viewers: [SSEClient], loggers: [Lines] = []) async throws -> Bool {
        var all = true
        for (index, viewer) in viewers.enumerated() {
            let received: Result<(event: ReceivedEvent, skipped: [ReceivedEvent]), any Error>
            do { received = .success(try await viewer.next(named: "update")) } catch { received = .failure(error) }
            guard case .success(let (event, skipped)) = received else {
                let lines = loggers.enumerated().map { "instance \($0): \($1.lines.withLock { $0 })" }
                Issue.record("viewer \(index) of \(viewers.count) got no update '\(name)': \(received); logs: \(lines)")
                return false
            }
            let fine = event.data.contains(name) && !skipped.contains { ["error", "reset", "update"].contains($0.event) }
            if !fine { Issue.record("expected the update '\(name)', got \(event.data), after \(skipped.map(\.event))") }
            all = all && fine
        }
        return all
    }

    /// Runs `body` while letting through any refresh that comes to `gate` meanwhile. Waiting for a change to reach
    /// every viewer needs this: if an instance had to refresh alone for a moment (a slow run: a command timed out and
    /// it left the cluster), its viewers got the change from that refresh, and the others get it only from the
    /// refresh it asks for as it rejoins, which comes to the gate too. Holding that one would wait forever.
    static func releasing<T>(_ gate: ReplyGate, during body: () async throws -> T) async rethrows -> T {
        let releaser = Task {
            while !Task.isCancelled {
                gate.releaseHeld()
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        defer { releaser.cancel() }
        return try await body()
    }

    @Test("3 instances: one refresh at a time for all, each change once everywhere, the lease moves, Redis down is no outage")
    func liveTableOnThreeInstances() async throws {
        let redis = try await RedisServerProcess.start()
        let upstream = Upstream()
        let loggers = (0..<3).map { _ in Lines() }
        let servers = try loggers.map { try Self.instance(upstream, redis: redis, logger: $0) }
        var running = servers
        defer { running.forEach { $0.shutdown() } }
        let viewers = try await Self.viewers(servers)
        let ports = servers.map(\.port)
        func alone(_ ports: [Int]) async throws -> Int {
            var count = 0
            for port in ports { count += try await Self.metric("rowstream_live_tables_alone", port: port) }
            return count
        }
        func holders(_ ports: [Int]) async throws -> [Int] { try await Self.holders(ports) }
        // The cluster settles: every instance follows the log, one holds the lease.
        #expect(try await eventually { try await holders(ports).count == 1 })
        upstream.gating.store(true, ordering: .relaxed)

        // Each interval's fetch is held at the gate: only one instance ever fetches at a time.
        for round in 1...3 {
            #expect(await eventually { upstream.gate.waiting == 1 })
            upstream.rename(round, "Round \(round)")
            upstream.gate.release()
            #expect(try await Self.releasing(upstream.gate) {
                try await Self.everyViewerGets("Round \(round)", viewers.flatMap { $0 }, loggers: loggers)
            })
        }
        #expect(upstream.gate.maxWaiting == 1, "never two refreshes at once: one refresher for the three instances")

        // A POSTed refresh on an instance without the lease: the holder does it (released fetch by fetch).
        let held = try await holders(ports)
        let follower = try #require(ports.first { !held.contains($0) })
        upstream.rename(0, "Posted")
        let finished = Flag()
        let answer = Task {
            defer { finished.value.store(true, ordering: .relaxed) }
            return try await fetch(follower, "POST", "/tables/live/refresh")
        }
        // Fetch by fetch until the POST is answered: the interval's refreshes (every second) come to the gate too,
        // and on a slow run more of them than any fixed count may come before the one that answers.
        _ = await eventually(timeout: .seconds(60)) {
            if upstream.gate.waiting == 1 { upstream.gate.release() }
            return finished.value.load(ordering: .relaxed)
        }
        let answered = try await answer.value
        #expect(answered.status == 200 && !answered.body.contains("error"), "\(answered.body)")
        #expect(try await Self.releasing(upstream.gate) {
            try await Self.everyViewerGets("Posted", viewers.flatMap { $0 }, loggers: loggers)
        })
        #expect(upstream.gate.maxWaiting == 1, "the follower did not fetch itself")

        // The refresher's instance stops: the lease moves to another one, which refreshes for the two left.
        let holder = try #require(try await holders(ports).first)
        let stopped = try #require(servers.firstIndex { $0.port == holder })
        servers[stopped].shutdown()
        running.remove(at: stopped)
        let left = ports.filter { $0 != holder }
        let leftViewers = viewers.indices.filter { $0 != stopped }.flatMap { viewers[$0] }
        #expect(try await eventually { try await holders(left).count == 1 })
        #expect(await eventually { upstream.gate.waiting == 1 })
        upstream.rename(4, "After the stop")
        upstream.gate.release()
        #expect(try await Self.releasing(upstream.gate) {
            try await Self.everyViewerGets("After the stop", leftViewers, loggers: loggers)
        })
        #expect(upstream.gate.maxWaiting == 1)

        // Redis killed: each instance refreshes alone; its viewers get the change once, no error.
        try await redis.kill()
        #expect(try await eventually { try await alone(left) == 2 })
        upstream.gate.releaseAll()
        upstream.rename(5, "While Redis is down")
        #expect(try await Self.everyViewerGets("While Redis is down", leftViewers, loggers: loggers))
        for port in left { #expect(try await Self.metric("rowstream_live_alone_refreshes_total", port: port) >= 1) }
        let leftLoggers = loggers.indices.filter { $0 != stopped }.map { loggers[$0] }
        #expect(leftLoggers.allSatisfy { $0.count(containing: "unreachable") == 1 }, "logged once")

        // Redis back (empty): one refresher again, and nothing is sent twice.
        try await redis.restart()
        #expect(try await eventually { try await alone(left) == 0 })
        #expect(try await eventually { try await holders(left).count == 1 })
        upstream.rename(0, "Redis is back")
        #expect(try await Self.everyViewerGets("Redis is back", leftViewers, loggers: loggers))
        // Each outage is logged once and its end once ("shared again" comes when the instance next talks to Redis,
        // which may be after the refresher is back). A slow run (a sanitizer) can add a short second outage, a command
        // timing out just after the restart: that is logged the same way, never once per failed command.
        #expect(await eventually {
            leftLoggers.allSatisfy { logger in
                let outages = logger.count(containing: "unreachable")
                return outages >= 1 && logger.count(containing: "shared again") == outages
            }
        }, "each outage logged once, and its end once")
    }
}

extension RedisLiveClusterTests {
    @Test("the refresher dies without giving its lease back: it expires and another instance refreshes")
    func leaseMovesWhenHolderDies() async throws {
        let redis = try await RedisServerProcess.start()
        let upstream = Upstream()
        let servers = try (0..<3).map { _ in try Self.instance(upstream, redis: redis, dies: true) }
        var running = servers
        defer { running.forEach { $0.shutdown() } }
        let viewers = try await Self.viewers(servers)
        let ports = servers.map(\.port)
        #expect(try await eventually { try await Self.holders(ports).count == 1 })
        let holder = try #require(try await Self.holders(ports).first)
        let dead = try #require(servers.firstIndex { $0.port == holder })
        servers[dead].shutdown()
        running.remove(at: dead)
        let left = ports.filter { $0 != holder }
        // Its lease (3 intervals) runs out; an instance with viewers takes it at its next tick.
        #expect(try await eventually { try await Self.holders(left).count == 1 })
        upstream.rename(2, "After the death")
        #expect(try await Self.everyViewerGets("After the death", viewers.indices.filter { $0 != dead }.flatMap { viewers[$0] }))
    }
}
