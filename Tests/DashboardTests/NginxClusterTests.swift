import Foundation
import Glibc
import TestSupport
import Testing

/// Two rowstream instances behind nginx with the config Scripts/cluster generates (docs/SCALING.md, "nginx in
/// front"): event streams pass unbuffered, viewers are spread, a session's POSTs reach the instance holding it,
/// and a draining instance's new viewers go to the other.
@Suite("nginx in front of instances", .serialized)
struct NginxClusterTests {
    @Test("streams pass unbuffered and spread; demand reaches the session's instance; a drained instance's viewers go elsewhere")
    func clusterBehindNginx() async throws {
        try #require(RowstreamProcess.isBuilt, "build the rowstream product first")
        try await Self.withCluster(items: 300, extra: []) { nginx, instances in
            try await Self.exercise(nginx: nginx, instances: instances)
        }
    }

    @Test("a viewer on a draining instance resumes through nginx on the other with every row exactly once")
    func drainResumesOnTheOtherInstance() async throws {
        let keyFile = try RowstreamProcess.temporaryFile(Data((0..<32).map { _ in UInt8.random(in: 0...255) })
            .base64EncodedString() + "\n")
        defer { try? FileManager.default.removeItem(atPath: keyFile) }
        chmod(keyFile, 0o600)
        try await Self.withCluster(items: 230, extra: ["--secret-file", keyFile]) { nginx, instances in
            try await Self.resumeAcrossADrain(nginx: nginx, instances: instances)
        }
    }

    @Test("after every instance was down once (a rolling restart), new streams open: nginx keeps no instance out")
    func streamsOpenAfterEveryInstanceWasDown() async throws {
        // An instance that refused a connection is marked failed; nginx then sends it one request per fail_timeout
        // and takes it back only once such a request completes. Event streams never complete, so with only streams
        // arriving (viewers reconnecting after a deploy) a pool whose instances all failed once answered
        // "no live upstreams" (502, which closes a browser's EventSource for good) for as long as that lasted.
        try await RowstreamCluster.run(instances: 2, arguments: Self.demoArguments(items: 300)) { cluster in
            var streams: [SSEClient] = []   // held open: a stream that ended could tell nginx an instance is back
            for tag in 0..<2 {
                cluster.instances[tag].terminate()
                #expect(await cluster.instances[tag].exitStatus(within: .seconds(20)) == 0)
                // A viewer arrives while it is down: nginx finds it refusing and opens the stream on the other.
                streams.append(try await SSEClient(port: cluster.port, path: "/tables/customers/stream"))
                try await cluster.restart(tag)
            }
            for _ in 0..<6 {
                streams.append(try await SSEClient(port: cluster.port, path: "/tables/customers/stream"))
            }
            #expect(streams.map(\.status) == Array(repeating: 200, count: 8))
        }
    }

    @Test("a gzip-coded stream passes nginx unbuffered and is not compressed twice: each batch decodes as it arrives")
    func gzipStreamThroughNginx() async throws {
        try #require(RowstreamProcess.isBuilt, "build the rowstream product first")
        try await Self.withCluster(items: 300, extra: []) { nginx, _ in
            let port = nginx.port
            try await offPool {
                let client = try TestConnection(port: port)
                try client.send("GET /tables/customers/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                + "Accept-Encoding: gzip, deflate, br\r\n\r\n")
                let head = try client.readHeadBlocking()
                #expect(head.status == 200)
                #expect(head.headers["content-encoding"] == "gzip", "compressed once, by the instance: \(head.headers)")
                #expect(head.headers["transfer-encoding"] == "chunked")
                client.decodeChunkedBody()
                var reader = GzipEventReader(client: client)
                // The first batch arrives while the stream stays open (it waits for demand): nothing buffered it.
                let (rows, before) = try reader.next(named: "rows")
                #expect(rows.data.contains("data-index=\"0\""))
                let session = try sessionInfo(try #require(before.first { $0.event == "session" }))
                let next = try #require(session["next"] as? String)
                let poster = try TestConnection(port: port)
                #expect(try poster.exchangeBlocking("POST", next).status == 202)
                #expect(try reader.next(named: "rows").event.data.contains("data-index=\"50\""), "the second batch")
            }
        }
    }

    /// The demo's flags for instances behind nginx: `items` rows, a 2 s drain window, no per-address cap (every
    /// viewer comes from nginx's address), and `extra`.
    private static func demoArguments(items: Int, extra: [String] = []) -> [String] {
        ["--demo-items", String(items), "--demo-latency-ms", "0", "--public", publicDirectory,
         "--drain-seconds", "2", "--max-connections-per-address", "0"] + extra
    }

    /// Runs `body` with two instances of the demo (`demoArguments`, instance tags 0 and 1) behind nginx; stops
    /// nginx and the instances by PID afterwards, whatever happened.
    private static func withCluster(
        items: Int, extra: [String], _ body: (NginxProcess, [RowstreamProcess.Server]) async throws -> Void
    ) async throws {
        try await RowstreamCluster.run(instances: 2, arguments: demoArguments(items: items, extra: extra)) { cluster in
            try await body(try #require(cluster.nginx), cluster.instances)
        }
    }

    /// Two batches on one instance, its drain, the rest on the other: the rows' indexes are 0..<230, each once.
    private static func resumeAcrossADrain(nginx: NginxProcess, instances: [RowstreamProcess.Server]) async throws {
        var indexes: [Int] = []
        let first = try await SSEClient(port: nginx.port, path: "/tables/customers/stream")
        var (rows, before) = try await first.next(named: "rows")
        indexes += rowIndexes(rows.data)
        let session = try sessionInfo(try #require(before.first { $0.event == "session" }))
        let holder = (session["session"] as? String)?.hasPrefix("00") == true ? 0 : 1
        #expect(try await fetch(nginx.port, "POST", try #require(session["next"] as? String)).status == 202)
        (rows, _) = try await first.next(named: "rows")
        indexes += rowIndexes(rows.data)

        instances[holder].terminate()                                  // the drain
        try await first.untilClosed()
        #expect(await instances[holder].exitStatus(within: .seconds(20)) == 0)
        let lastEventID: String = try #require(first.lastEventID)
        let resumed = try await SSEClient(port: nginx.port, path: "/tables/customers/stream", lastEventID: lastEventID)
        #expect(resumed.status == 200)
        let (event, skipped) = try await resumed.next(named: "session")
        #expect(!skipped.contains { $0.event == "reset" })
        let info = try sessionInfo(event)
        #expect((info["session"] as? String)?.hasPrefix(holder == 0 ? "01" : "00") == true, "on the other instance")
        for _ in 0..<10 where indexes.count < 230 {
            #expect(try await fetch(nginx.port, "POST", try #require(info["next"] as? String)).status == 202)
            let (next, between) = try await resumed.next(named: "rows")
            #expect(!between.contains { $0.event == "reset" }, "resumed, not started over")
            indexes += rowIndexes(next.data)
        }
        #expect(indexes == Array(0..<230), "every row exactly once, in order")
    }

    /// The test proper, with nginx and the instances running.
    private static func exercise(nginx: NginxProcess, instances: [RowstreamProcess.Server]) async throws {
        // Four viewers through nginx: the first batch arrives while each stream is still open (the stream waits
        // for demand and never ends by itself), so nginx passed it on unbuffered.
        var viewers: [(stream: SSEClient, next: String, tag: String)] = []
        for _ in 0..<4 {
            let stream = try await SSEClient(port: nginx.port, path: "/tables/customers/stream")
            #expect(stream.status == 200)
            let (rows, before) = try await stream.next(named: "rows")
            #expect(rows.data.contains("data-index=\"0\""), "the first batch")
            let session = try sessionInfo(try #require(before.first { $0.event == "session" }))
            let id = try #require(session["session"] as? String)
            viewers.append((stream, try #require(session["next"] as? String), String(id.prefix(2))))
        }
        #expect(Set(viewers.map(\.tag)) == ["00", "01"], "least_conn spreads the streams: \(viewers.map(\.tag))")

        // Demand through nginx: every POST reaches the instance holding its session (another answers 204, ended).
        for viewer in viewers {
            let answer = try await fetch(nginx.port, "POST", viewer.next)
            #expect(answer.status == 202, "POST \(viewer.next): \(answer.status) \(answer.body)")
            let (rows, _) = try await viewer.stream.next(named: "rows")
            #expect(rows.data.contains("data-index=\"50\""), "the second batch")
        }

        // Instance 0 drains: its streams are told to reconnect and closed; new viewers reach instance 1.
        instances[0].terminate()
        for viewer in viewers where viewer.tag == "00" {
            try await viewer.stream.untilClosed()
            #expect((1...2_000).contains(viewer.stream.retryMilliseconds ?? 0))
        }
        #expect(await instances[0].exitStatus(within: .seconds(20)) == 0)
        for _ in 0..<3 {
            let stream = try await SSEClient(port: nginx.port, path: "/tables/customers/stream")
            #expect(stream.status == 200)
            let (_, before) = try await stream.next(named: "rows")
            let session = try sessionInfo(try #require(before.first { $0.event == "session" }))
            #expect((session["session"] as? String)?.hasPrefix("01") == true)
        }
    }
}
