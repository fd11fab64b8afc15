import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 15's proofs under load: 3 rowstream processes with one sealing key (`--secret-file`) and one Redis, 300
/// viewers streaming a config table, each doing what a browser's EventSource does (`ClusterViewer`). Issue 29 part 1:
/// in front of them a balancer that knows nothing of sessions (nginx round robin, or no proxy at all: every instance
/// on one port with SO_REUSEPORT), so most demands reach an instance other than the session's, which hands them on
/// through Redis (docs/SCALING.md, "Any instance answers any request"). The upstream is the config fixture (offset pagination that drifts: each page repeats the
/// previous page's last item, so exactly-once also needs the dedup window the resume token carries); it counts its
/// requests per page. Viewers ask for batches as the test's `DemandAllowance` lets them, so they are mid-way
/// through the table when an instance dies or restarts.
///
/// Upstream requests per page: with a shared Redis (`--redis`, once the built rowstream lists it) the instances
/// share one page cache and one fetch per page, so every page is fetched exactly once for the whole cluster.
/// Without it each instance has its own cache (the table's TTL outlasts the test) and its own coalescing, so the
/// bound is one request per page per instance that ever ran: 3 here, 6 over a rolling restart.
@Suite("a cluster under load", .serialized)
struct ClusterLoadTests {
    static let viewers = 300
    /// Not a multiple of the upstream's page of 10: the fixture's walk ends when its offset (items received, the
    /// repeat included) reaches the total, so a last full page would leave its last item unread.
    static let items = 115
    static let batchSize = 10

    @Test("kill -9 of one instance mid-stream: its viewers resume on the others, every row once",
          arguments: [RowstreamCluster.Front.nginxRoundRobin, .reusePort])
    func killedInstance(front: RowstreamCluster.Front) async throws {
        try await Self.withLoadedCluster(front) { cluster, upstream, viewers, allowance, redis in
            let shared = redis != nil
            try await Self.reach(3, viewers, allowance)   // every viewer has 3 of 12 batches, none loading
            let victim = 1
            let onVictim = viewers.indices.filter { viewers[$0].outcome.instances.last == Self.tag(victim) }
            #expect(!onVictim.isEmpty, "nginx spread viewers onto instance \(victim)")
            cluster.instances[victim].kill()
            #expect(await cluster.instances[victim].exitStatus(within: .seconds(20)) == SIGKILL)
            allowance.set(.max)
            try await Self.finish(viewers)

            for index in onVictim {
                let outcome = viewers[index].outcome
                #expect(outcome.reconnects >= 1 && outcome.instances.last != Self.tag(victim),
                        "viewer \(index) moved off the killed instance: \(outcome.instances)")
            }
            // Demands reached their sessions wherever they landed: a viewer the kill did not touch was almost never
            // told its session ended (a forward past the Redis timeout on a loaded machine may be). Without the
            // relay, most demands would land elsewhere and nearly every viewer would reconnect so.
            let others = viewers.indices.filter { !onVictim.contains($0) }
            let toldEnded = others.filter { viewers[$0].outcome.endedReconnects > 0 }
            #expect(toldEnded.count < others.count / 4, "\(toldEnded.count) of \(others.count) viewers told ended")
            let perPage = Self.requestsPerPage(upstream)
            print("ClusterLoadTests kill -9: upstream requests per page \(perPage.sorted { $0.key < $1.key })")
            #expect(perPage.values.allSatisfy { $0 <= (shared ? 1 : 3) }, "requests per page: \(perPage)")
        }
    }

    @Test("Redis killed mid-stream behind a round-robin balancer, then back: no row lost or doubled meanwhile, every viewer finishes")
    func redisDown() async throws {
        try await Self.withLoadedCluster(.nginxRoundRobin) { cluster, upstream, viewers, allowance, redis in
            let redis = try #require(redis, "this build takes --redis")
            try await Self.reach(3, viewers, allowance)
            let forwarded = try await Self.forwardedDemands(cluster)
            #expect(forwarded > 0, "demands handed from instance to instance while Redis was up")
            await redis.kill()
            allowance.set(.max)
            // Without the relay a demand that lands on another instance is answered `ended`: the viewer reconnects at
            // once and asks again on its new session; it gets a batch when a demand lands where its stream is (by
            // chance under round robin: a lone viewer's alternating stream and POST may never).
            let progressed = await eventually(timeout: .seconds(120)) {
                viewers.filter { $0.outcome.batches > 3 }.count >= 10 && viewers.contains { $0.outcome.endedReconnects > 0 }
            }
            #expect(progressed, "viewers got batches while Redis was down, by reconnecting")
            let back = try await redis.restart()
            do { try await Self.finish(viewers) } catch {
                await back.stop()
                throw error
            }
            await back.stop()
            let perPage = Self.requestsPerPage(upstream)
            print("ClusterLoadTests Redis down: \(forwarded) demands forwarded before; upstream requests per page \(perPage.sorted { $0.key < $1.key })")
            #expect(perPage.values.allSatisfy { $0 <= 3 }, "at most one per page per instance: \(perPage)")
        }
    }

    @Test("a rolling restart of all three under load (SIGTERM drain, same port and key): no row lost or doubled",
          arguments: [RowstreamCluster.Front.nginxRoundRobin])
    func rollingRestart(front: RowstreamCluster.Front) async throws {
        try await Self.withLoadedCluster(front) { cluster, upstream, viewers, allowance, _ in
            try await Self.reach(2, viewers, allowance)
            for tag in 0..<3 {
                allowance.set(allowance.value + 2)   // more demand while the instance drains
                cluster.instances[tag].terminate()
                let status = await cluster.instances[tag].exitStatus(within: .seconds(30))
                // Its stderr when it did not exit 0: a sanitized build's report (status 66 under TSan) is there.
                let errors = status == 0 ? "" : (try? await cluster.instances[tag].errors(within: .seconds(1))) ?? ""
                #expect(status == 0, "instance \(tag) drained: status \(status.map { "\($0)" } ?? "none"), \(errors.suffix(4000))")
                try await cluster.restart(tag)
                try await Self.reach(allowance.value, viewers, allowance)   // load goes on after the restart
            }
            allowance.set(.max)
            try await Self.finish(viewers)
            for (index, viewer) in viewers.enumerated() {
                #expect(viewer.outcome.reconnects >= 1, "viewer \(index) was drained at least once")
            }
            let perPage = Self.requestsPerPage(upstream)
            print("ClusterLoadTests rolling restart: upstream requests per page \(perPage.sorted { $0.key < $1.key })")
            #expect(perPage.values.allSatisfy { $0 <= 6 }, "at most one per page per instance process: \(perPage)")
        }
    }

    // MARK: The cluster and its viewers

    /// Starts the fixture upstream, a key file, redis-server if rowstream takes `--redis`, 3 instances behind nginx
    /// and `viewers` viewer threads (each asking for its first batch only); runs `body`; then checks what every test
    /// here promises: each viewer got every row exactly once, in order, with the upstream's keys, never a `reset`,
    /// and every stream it opened through nginx answered 200 (on anything else a browser's EventSource gives up).
    private static func withLoadedCluster(
        _ front: RowstreamCluster.Front,
        _ body: (RowstreamCluster, FixtureServer, [ClusterViewer], DemandAllowance, RedisProcess?) async throws -> Void
    ) async throws {
        let upstream = try ConfigFixtureUpstream(count: items, token: "cluster-token")
        defer { upstream.stop() }
        let config = try RowstreamProcess.temporaryFile(Self.config(upstreamPort: upstream.port))
        let keyFile = try RowstreamProcess.temporaryFile(
            Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString() + "\n")
        chmod(keyFile, 0o600)
        defer { [config, keyFile].forEach { try? FileManager.default.removeItem(atPath: $0) } }

        let takesRedis = try await offPool { RowstreamProcess.hasOption("--redis") }
        let redis = takesRedis ? try await RedisProcess.start() : nil
        var arguments = ["--config", config, "--secret-file", keyFile, "--public", publicDirectory,
                         "--drain-seconds", "2", "--max-connections-per-address", "0"]
        if let redis { arguments += ["--redis", redis.url] }
        do {
            try await RowstreamCluster.run(instances: 3, arguments: arguments, front: front) { cluster in
                let allowance = DemandAllowance(1)
                let viewers = (0..<viewers).map { _ in
                    ClusterViewer(port: cluster.port, path: "/tables/items/stream")
                }
                let deadline = ContinuousClock.now + .seconds(600)
                for viewer in viewers {
                    Thread { viewer.run(allowance: allowance, until: deadline) }.start()
                }
                defer { allowance.end() }   // stops the viewer threads of a failing test
                do {
                    try await body(cluster, upstream.server, viewers, allowance, redis)
                } catch {
                    if let nginx = cluster.nginx {
                        let log = nginx.errorLog.split(separator: "\n").suffix(8).joined(separator: "\n")
                        Issue.record("nginx's error log ends: \(log)")
                    }
                    throw error
                }
                Self.expectEveryRowOnce(viewers)
            }
        } catch {
            await redis?.stop()
            throw error
        }
        await redis?.stop()
    }

    /// A config table over the fixture upstream with a page cache that outlasts the test and no prefetch, so each
    /// page is fetched only when a viewer asks for it.
    private static func config(upstreamPort: Int) -> String {
        """
        {"tables": [
          {"name": "items", "title": "Items", "batchSize": \(batchSize),
           "request": {"url": "http://127.0.0.1:\(upstreamPort)/v1/things",
                       "headers": {"Authorization": "Bearer cluster-token"}},
           "items": "results", "key": "id",
           "columns": [{"title": "ID", "path": "id", "format": "number"}, {"title": "Name", "path": "name"}],
           "pagination": {"style": "offset", "totalPath": "total"},
           "cache": {"ttlSeconds": 600, "prefetch": false}}
        ]}
        """
    }

    /// Lets every viewer have `batches` batches; throws unless all have them within a generous bound (viewers
    /// resuming after a drop wait their `retry:` first), naming the ones behind. A stream answered with anything
    /// but 200 fails it at once: a browser's EventSource would have given up there.
    private static func reach(_ batches: Int, _ viewers: [ClusterViewer], _ allowance: DemandAllowance) async throws {
        allowance.set(batches)
        _ = await eventually(timeout: .seconds(300)) {
            viewers.allSatisfy { $0.outcome.batches >= batches } || viewers.contains { $0.outcome.failedOpens > 0 }
        }
        let refused = viewers.indices.filter { viewers[$0].outcome.failedOpens > 0 }
        try #require(refused.isEmpty,
                     "\(refused.count) viewers' streams not opened, e.g. \(describe(viewers, refused))")
        let behind = viewers.indices.filter { viewers[$0].outcome.batches < batches }
        try #require(behind.isEmpty,
                     "\(behind.count) viewers without \(batches) batches, e.g. \(describe(viewers, behind))")
    }

    /// What `viewers[indexes]` (the first 3) got, for a failure's message.
    private static func describe(_ viewers: [ClusterViewer], _ indexes: [Int]) -> String {
        indexes.prefix(3).map { index in
            let outcome = viewers[index].outcome
            return """
                viewer \(index): \(outcome.batches) batches, \(outcome.indexes.count) rows \
                (in order: \(outcome.indexes == Array(0..<outcome.indexes.count))), resets \(outcome.resets), \
                total \(String(describing: outcome.total)), sessions \(outcome.instances), \
                reconnects \(outcome.reconnects) (\(outcome.failedOpens) not 200), \
                \(outcome.trouble.count) troubles, the last \(outcome.trouble.suffix(4))
                """
        }.joined(separator: "; ")
    }

    /// Waits (bounded) until every viewer has its `complete`.
    private static func finish(_ viewers: [ClusterViewer]) async throws {
        let done = await eventually(timeout: .seconds(300)) { viewers.allSatisfy { $0.outcome.total != nil } }
        let open = viewers.indices.filter { viewers[$0].outcome.total == nil }
        #expect(done, "\(open.count) viewers without complete, e.g. \(describe(viewers, open))")
    }

    private static func expectEveryRowOnce(_ viewers: [ClusterViewer]) {
        let keys = (0..<items).map { $0 == 3 ? ConfigFixtureUpstream.bigID : String($0 + 1) }
        let wrong = viewers.indices.filter { index in
            let outcome = viewers[index].outcome
            return outcome.indexes != Array(0..<items) || outcome.keys != keys || outcome.resets != 0
                || outcome.total != items || outcome.failedOpens != 0
        }
        #expect(wrong.isEmpty, """
            \(wrong.count) viewers without every row exactly once on streams that all opened, \
            e.g. \(describe(viewers, wrong))
            """)
    }

    /// Demands the instances handed to another one (`rowstream_demands_forwarded_total`, every outcome), summed.
    private static func forwardedDemands(_ cluster: RowstreamCluster) async throws -> Int {
        var total = 0
        for instance in cluster.instances {
            let text = try await TestConnection(port: instance.port).exchange("GET", "/metrics").body
            for line in text.split(separator: "\n") where line.hasPrefix("rowstream_demands_forwarded_total{") {
                total += Int(Double(line.split(separator: " ").last ?? "") ?? 0)
            }
        }
        return total
    }

    /// Upstream requests per page, by the page's `offset`.
    private static func requestsPerPage(_ upstream: FixtureServer) -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for request in upstream.requests where request.path == "/v1/things" {
            counts[Int(request.query["offset"] ?? "0") ?? 0, default: 0] += 1
        }
        return counts
    }

    /// An instance's tag as its session ids start: two hex digits.
    private static func tag(_ index: Int) -> String { String(format: "%02x", index) }
}
