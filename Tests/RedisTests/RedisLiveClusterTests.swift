import Foundation
@testable import Dashboard
import Redis
import RowstreamKit
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
    /// batches pass freely before). Thread-safe: `Mutex` and atomics.
    final class Upstream: Sendable {
        let items = Mutex((1...6).map { Item(key: "k\($0)", name: "Item \($0)") })
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

    /// A logger that keeps its lines. Thread-safe: one `Mutex`.
    final class Lines: RowstreamLogger {
        let lines = Mutex<[String]>([])
        func log(_ level: RowstreamLogLevel, _ message: String) { lines.withLock { $0.append(message) } }
        func count(containing text: String) -> Int { lines.withLock { $0.count { $0.contains(text) } } }
    }

    /// A server of the cluster on 127.0.0.1 port 0, with its own Redis client, logging to `logger`.
    static func instance(_ upstream: Upstream, redis: RedisServerProcess, logger: Lines) throws -> RowstreamServer {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.eventLoopCount = 1
        configuration.logger = logger
        configuration.liveCluster = RedisLiveCluster(client: try testClient(redis.socketPath))
        return try RowstreamServer.start([upstream.table], configuration: configuration)
    }

    /// A metric without labels from `/metrics` (0 when absent).
    static func metric(_ name: String, port: Int) async throws -> Int {
        let text = try await fetch(port, "GET", "/metrics").body
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Double($0.split(separator: " ")[1]) }.map { Int($0) } ?? 0
    }

    /// Reads each viewer's next `update` event: true if every one is the change named `name`, with no error or
    /// reset before it.
    static func everyViewerGets(_ name: String, _ viewers: [SSEClient]) async throws -> Bool {
        var all = true
        for viewer in viewers {
            let (event, skipped) = try await viewer.next(named: "update")
            let fine = event.data.contains(name) && !skipped.contains { ["error", "reset", "update"].contains($0.event) }
            if !fine { Issue.record("expected the update '\(name)', got \(event.data), after \(skipped.map(\.event))") }
            all = all && fine
        }
        return all
    }

    @Test("3 instances: one refresh at a time for all, each change once everywhere, the lease moves, Redis down is no outage")
    func liveTableOnThreeInstances() async throws {
        let redis = try await RedisServerProcess.start()
        let upstream = Upstream()
        let loggers = (0..<3).map { _ in Lines() }
        let servers = try loggers.map { try Self.instance(upstream, redis: redis, logger: $0) }
        var running = servers
        defer { running.forEach { $0.shutdown() } }
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
        let ports = servers.map(\.port)
        func alone(_ ports: [Int]) async throws -> Int {
            var count = 0
            for port in ports { count += try await Self.metric("rowstream_live_tables_alone", port: port) }
            return count
        }
        func holders(_ ports: [Int]) async throws -> [Int] {
            var held: [Int] = []
            for port in ports where try await Self.metric("rowstream_live_leases_held", port: port) == 1 { held.append(port) }
            return held
        }
        // The cluster settles: every instance follows the log, one holds the lease.
        #expect(try await eventually { try await holders(ports).count == 1 })
        upstream.gating.store(true, ordering: .relaxed)

        // Each interval's fetch is held at the gate: only one instance ever fetches at a time.
        for round in 1...3 {
            #expect(await eventually { upstream.gate.waiting == 1 })
            upstream.rename(round, "Round \(round)")
            upstream.gate.release()
            #expect(try await Self.everyViewerGets("Round \(round)", viewers.flatMap { $0 }))
        }
        #expect(upstream.gate.maxWaiting == 1, "never two refreshes at once: one refresher for the three instances")
        let fetchesBefore = upstream.gate.arrived
        #expect(fetchesBefore <= 4, "one fetch per interval, each released by the test: \(fetchesBefore)")

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
        #expect(try await Self.everyViewerGets("After the stop", leftViewers))
        #expect(upstream.gate.maxWaiting == 1)

        // Redis killed: each instance refreshes alone; its viewers get the change once, no error.
        try await redis.kill()
        #expect(try await eventually { try await alone(left) == 2 })
        upstream.gate.releaseAll()
        upstream.rename(5, "While Redis is down")
        #expect(try await Self.everyViewerGets("While Redis is down", leftViewers))
        for port in left { #expect(try await Self.metric("rowstream_live_alone_refreshes_total", port: port) >= 1) }
        let leftLoggers = loggers.indices.filter { $0 != stopped }.map { loggers[$0] }
        #expect(leftLoggers.allSatisfy { $0.count(containing: "unreachable") == 1 }, "logged once")

        // Redis back (empty): one refresher again, and nothing is sent twice.
        try await redis.restart()
        #expect(try await eventually { try await alone(left) == 0 })
        #expect(try await eventually { try await holders(left).count == 1 })
        upstream.rename(0, "Redis is back")
        #expect(try await Self.everyViewerGets("Redis is back", leftViewers))
        #expect(leftLoggers.allSatisfy { $0.count(containing: "unreachable") == 1 && $0.count(containing: "shared again") == 1 })
    }
}
