import Foundation
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
        try #require(NginxProcess.isInstalled, "install nginx (Scripts/test does)")
        var instances: [RowstreamProcess.Server] = []
        defer { instances.forEach { $0.kill() } }
        for tag in 0..<2 {
            instances.append(try await RowstreamProcess.start(
                ["--port", "0", "--demo-items", "300", "--demo-latency-ms", "0", "--public", publicDirectory,
                 "--instance-tag", String(tag), "--drain-seconds", "2", "--max-connections-per-address", "0"]))
        }
        let nginx = try await NginxProcess.start(over: instances.map(\.port))
        do {
            try await Self.exercise(nginx: nginx, instances: instances)
        } catch {
            await nginx.stop()
            throw error
        }
        await nginx.stop()
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

        // Demand through nginx: every POST reaches the instance holding its session (a wrong one answers 404).
        for viewer in viewers {
            let answer = try await fetch(nginx.port, "POST", viewer.next)
            #expect(answer.status == 202, "POST \(viewer.next): \(answer.status) \(answer.body)")
            let (rows, _) = try await viewer.stream.next(named: "rows")
            #expect(rows.data.contains("data-index=\"50\""), "the second batch")
        }

        // Instance 0 drains: its streams are told to reconnect and closed; new viewers reach instance 1.
        instances[0].terminate()
        for viewer in viewers where viewer.tag == "00" {
            while try await viewer.stream.next() != nil {}
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
