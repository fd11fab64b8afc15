import Foundation
import TestSupport
import Testing
import Dashboard

/// Upstream faults as the viewer sees them: the first batch arrives, the second page's fetch meets the fault,
/// and the viewer gets one clear `error` event (no `reset`, so the page keeps its rows) while the server keeps
/// serving other viewers and /healthz. The tables come from a config, as a user's would.
@Suite("Upstream faults")
struct UpstreamFaultTests {
    @Test(arguments: FaultUpstream.Fault.allCases)
    func aFaultGivesOneErrorEventAndTheServerKeepsServing(_ fault: FaultUpstream.Fault) async throws {
        let upstream = try FaultUpstream.start(fault)
        defer { upstream.stop() }
        // Only the hang may meet the request timeout (it is that fault); the others' bytes are ready before the
        // dashboard starts and get a minute, far more than a sanitized build on a busy machine needs.
        let dashboard = try startDashboard(upstreamPort: Int(upstream.port), timeoutSeconds: fault == .hang ? 1 : 60)
        defer { dashboard.shutdown() }
        let port = dashboard.port

        let viewer = try await SSEClient(port: port, path: "/tables/bad/stream", timeoutSeconds: 30)
        let session = try sessionInfo(try await viewer.next(named: "session").event)
        let nextURL = try #require(session["next"] as? String)
        let first = try await viewer.next(named: "rows").event
        #expect(rowKeys(first.data) == ["0", "1", "2", "3", "4"])
        #expect(try await post(port, nextURL) == 202)
        let (error, skipped) = try await viewer.next(named: "error")
        #expect(!skipped.contains { $0.event == "reset" || $0.event == "rows" })
        let body = try #require(try JSONSerialization.jsonObject(with: Data(error.data.utf8)) as? [String: Any])
        let message = try #require(body["message"] as? String)
        #expect(!message.isEmpty && message.count < 200)
        #expect(!message.contains("127.0.0.1") && !message.contains("\(upstream.port)"), "message leaks the URL")
        #expect(body["retryable"] is Bool)
        if fault == .gzipBomb || fault == .tenMegabytePage { #expect(message.contains("too large")) }
        if fault == .hang { #expect(message.contains("in time")) }
        if fault == .reset || fault == .truncatedChunked { #expect(message.contains("broke")) }

        // Meanwhile the server serves others.
        let other = try await SSEClient(port: port, path: "/tables/good/stream")
        #expect(rowKeys(try await other.next(named: "rows").event.data).count == 5)
        #expect(try await fetch(port, "GET", "/healthz").status == 200)
        viewer.connection.closeNow()
        other.connection.closeNow()
    }

    /// The test above sees other viewers served once the fault is over (the hang timed out). Here they are served
    /// while the upstream still hangs: the hung fetch holds no thread, no loop and no lock that others need.
    @Test func whileAnUpstreamHangsOtherViewersAreServed() async throws {
        let upstream = try FaultUpstream.start(.hang)
        var upstreamStopped = false
        defer { if !upstreamStopped { upstream.stop() } }
        // The hang and the batch's timeout outlast serving the others on a slow run (scaled as every bound of the tests).
        let dashboard = try startDashboard(upstreamPort: Int(upstream.port), timeoutSeconds: 60 * TestTime.scale,
                                           heartbeat: .seconds(3_600))
        defer { dashboard.shutdown() }
        let port = dashboard.port

        let viewer = try await SSEClient(port: port, path: "/tables/bad/stream", timeoutSeconds: 30)
        let nextURL = try #require(try sessionInfo(try await viewer.next(named: "session").event)["next"] as? String)
        _ = try await viewer.next(named: "rows")
        #expect(try await post(port, nextURL) == 202)
        _ = try await viewer.next(named: "loading")  // the second page's fetch has started: it hangs for 60 s

        // Three other viewers each get two batches (the second on demand) and /healthz answers.
        for _ in 0..<3 {
            let other = try await SSEClient(port: port, path: "/tables/good/stream")
            let next = try #require(try sessionInfo(try await other.next(named: "session").event)["next"] as? String)
            #expect(rowKeys(try await other.next(named: "rows").event.data) == ["0", "1", "2", "3", "4"])
            #expect(try await post(port, next) == 202)
            #expect(rowKeys(try await other.next(named: "rows").event.data) == ["5", "6", "7", "8", "9"])
            other.connection.closeNow()
        }
        #expect(try await fetch(port, "GET", "/healthz").status == 200)
        // What came meanwhile, if anything, in the message (a sanitized run once saw input here, of an unknown kind).
        let early = viewer.connection.hasInput() ? (try? viewer.connection.readAvailableBlocking()) ?? [] : []
        #expect(early.isEmpty, "the hung batch ended before the others were served: \(String(decoding: early, as: UTF8.self))")

        // The upstream goes away: the hung fetch fails, and the viewer gets its error.
        upstream.stop()
        upstreamStopped = true
        let (error, skipped) = try await viewer.next(named: "error")
        #expect(!skipped.contains { $0.event == "reset" || $0.event == "rows" })
        #expect(!error.data.isEmpty)
        viewer.connection.closeNow()
    }

    /// A dashboard with two tables over the fault upstream, from a config: `good` (always valid pages) and `bad`.
    /// No retries and no cache, so the viewer meets each fault exactly once.
    private func startDashboard(upstreamPort: Int, timeoutSeconds: Int,
                                heartbeat: Duration = .seconds(15)) throws -> Dashboard {
        let tables = ["good", "bad"].map { name in
            """
            {"name": "\(name)", "title": "\(name)", "batchSize": 5,
             "request": {"url": "http://127.0.0.1:\(upstreamPort)/\(name)", "timeoutSeconds": \(timeoutSeconds)},
             "items": "data", "key": "id",
             "columns": [{"title": "ID", "path": "id", "format": "number"}, {"title": "Name", "path": "name"}],
             "pagination": {"style": "cursor", "cursorPath": "next_cursor", "cursorParameter": "cursor"},
             "retry": {"attempts": 1}, "cache": {"ttlSeconds": 0, "prefetch": false}}
            """
        }
        let text = "{\"tables\": [" + tables.joined(separator: ",") + "]}"
        let config = try ConfigFile.parse(Array(text.utf8), file: "faults.json", environment: [:])
        return try DashboardTests.startDashboard(config: config) { configuration in
            configuration.server.eventLoopCount = 1
            configuration.server.batchTimeout = .seconds(30 * TestTime.scale)
            configuration.server.heartbeatInterval = heartbeat
        }
    }
}
