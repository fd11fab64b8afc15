import Dashboard
import Foundation
import TestSupport
import Testing

/// Live tests of the SSE contract: a real server on port 0, a plain socket client, the demo upstream fetched
/// through libcurl.
@Suite("Event stream, end to end")
struct StreamEndToEndTests {
    @Test("every row arrives exactly once across a forced disconnect, then the finished stream answers 204")
    func everyRowExactlyOnceAcrossDisconnect() async throws {
        let dashboard = try startDashboard(items: 95, batchSize: 10)
        defer { dashboard.shutdown() }
        var keys: [String] = []

        // First connection: the first batch arrives by itself; ask for three more, then drop the connection.
        let first = try await SSEClient(port: dashboard.port, path: "/tables/customers/stream")
        #expect(first.status == 200)
        #expect(first.headers["content-type"]?.hasPrefix("text/event-stream") == true)
        #expect(first.headers["cache-control"] == "no-cache")
        #expect(first.headers["x-accel-buffering"] == "no")
        let session = try sessionInfo(try await first.next(named: "session").event)
        let nextURL = try #require(session["next"] as? String)
        for batch in 0..<4 {
            let rows = try await first.next(named: "rows").event
            keys += rowKeys(rows.data)
            #expect(rows.id != nil)
            if batch < 3 { #expect(try await post(dashboard.port, nextURL) == 202) }
        }
        first.connection.closeNow()
        #expect(keys.count == 40)

        // Reconnect with Last-Event-ID: a new session that continues after the last delivered batch.
        let second = try await SSEClient(port: dashboard.port, path: "/tables/customers/stream", lastEventID: first.lastEventID)
        let resumed = try sessionInfo(try await second.next(named: "session").event)
        let resumedNext = try #require(resumed["next"] as? String)
        #expect(resumedNext != nextURL)
        var total: Int?
        for _ in 0..<20 {
            #expect(try await post(dashboard.port, resumedNext) == 202)
            let (event, _) = try await second.next(named: "rows")
            keys += rowKeys(event.data)
            if keys.count >= 95 { break }
        }
        let complete = try await second.next(named: "complete").event
        total = (try JSONSerialization.jsonObject(with: Data(complete.data.utf8)) as? [String: Any])?["total"] as? Int
        #expect(total == 95)
        #expect(try await second.next() == nil, "the server ends a finished stream")

        #expect(keys == (1...95).map(String.init), "every row once, in order")
        #expect(dashboard.demo.requestCount == 10, "ten upstream pages, none fetched twice")

        // The browser reconnects with the `complete` id: 204 tells it to stop.
        let third = try await SSEClient(port: dashboard.port, path: "/tables/customers/stream", lastEventID: complete.id)
        #expect(third.status == 204)
    }

    @Test("a disconnect while a batch is loading loses nothing and doubles nothing")
    func disconnectDuringLoad() async throws {
        let dashboard = try startDashboard(items: 40, batchSize: 10, latencyMilliseconds: 30)
        defer { dashboard.shutdown() }
        let first = try await SSEClient(port: dashboard.port, path: "/tables/customers/stream")
        let session = try sessionInfo(try await first.next(named: "session").event)
        var keys = rowKeys(try await first.next(named: "rows").event.data)
        #expect(try await post(dashboard.port, try #require(session["next"] as? String)) == 202)
        _ = try await first.next(named: "loading")
        first.connection.closeNow()   // the batch in flight is never delivered on this connection

        let second = try await SSEClient(port: dashboard.port, path: "/tables/customers/stream", lastEventID: first.lastEventID)
        let resumed = try sessionInfo(try await second.next(named: "session").event)
        let next = try #require(resumed["next"] as? String)
        while keys.count < 40 {
            #expect(try await post(dashboard.port, next) == 202)
            keys += rowKeys(try await second.next(named: "rows").event.data)
        }
        _ = try await second.next(named: "complete")
        #expect(keys == (1...40).map(String.init))
    }

    @Test("loadNext while a batch is loading loads nothing more")
    func demandWhileLoadingIsIgnored() async throws {
        // The upstream holds the first page until the five POSTs have all been answered: they land while it loads
        // however slow the machine. (The Batches tests prove the same rule with a fake loader.)
        try await withHeldTable { gate, upstream, dashboard in
            let client = try await SSEClient(port: dashboard.port, path: "/tables/held/stream")
            let session = try sessionInfo(try await client.next(named: "session").event)
            let next = try #require(session["next"] as? String)
            _ = try await client.next(named: "loading")
            for _ in 0..<5 { #expect(try await post(dashboard.port, next) == 202) }   // all while the first batch loads
            #expect(await eventually { gate.waiting == 1 })
            gate.release()
            let rows = try await client.next(named: "rows").event
            #expect(rowKeys(rows.data) == (1...10).map(String.init))
            #expect(upstream.requests.count == 1)
        }
    }

    @Test("viewers who open a table together share one upstream request per page, its rows or its failure",
          arguments: [true, false])
    func viewersShareOneFetch(_ succeeds: Bool) async throws {
        // The upstream holds the page until all eight viewers are waiting for it, then the test releases it. The
        // first viewer's load starts the fetch; the others wait for it with no task of their own (a callback on the
        // fetch): a failure must reach them as the load's error, not as a second fetch.
        let reply = succeeds ? heldTablePage : .json("{\"error\":\"down\"}", status: 503)
        try await withHeldTable(reply: reply) { gate, upstream, dashboard in
            var viewers: [SSEClient] = []
            for _ in 0..<8 {
                let viewer = try await SSEClient(port: dashboard.port, path: "/tables/held/stream")
                _ = try await viewer.next(named: "loading")
                viewers.append(viewer)
            }
            #expect(await eventually { gate.waiting >= 1 })
            gate.releaseAll()
            for viewer in viewers {
                if succeeds {
                    #expect(rowKeys(try await viewer.next(named: "rows").event.data) == (1...10).map(String.init))
                } else {
                    let error = try await viewer.next(named: "error").event
                    #expect(error.data.contains("503"), "\(error.data)")
                }
                viewer.connection.closeNow()
            }
            #expect(upstream.requests.count == 1)
        }
    }

    @Test("reload starts over with a reset and the first batch")
    func reloadStartsOver() async throws {
        let dashboard = try startDashboard(items: 50, batchSize: 10)
        defer { dashboard.shutdown() }
        let client = try await SSEClient(port: dashboard.port, path: "/tables/customers/stream")
        let session = try sessionInfo(try await client.next(named: "session").event)
        _ = try await client.next(named: "rows")
        #expect(try await post(dashboard.port, try #require(session["next"] as? String)) == 202)
        #expect(rowKeys(try await client.next(named: "rows").event.data).first == "11")
        #expect(try await post(dashboard.port, try #require(session["reload"] as? String)) == 202)
        let reset = try await client.next(named: "reset").event
        #expect(reset.id != nil)
        let rows = try await client.next(named: "rows").event
        #expect(rowKeys(rows.data) == (1...10).map(String.init))
        #expect(rows.data.contains("data-index=\"0\""))
    }

    @Test("a failed batch sends a retryable error; next retries that batch and nothing is lost")
    func errorThenRetry() async throws {
        let dashboard = try startDashboard(items: 60, batchSize: 10, failEvery: 3)
        defer { dashboard.shutdown() }
        let client = try await SSEClient(port: dashboard.port, path: "/tables/customers/stream")
        let session = try sessionInfo(try await client.next(named: "session").event)
        let next = try #require(session["next"] as? String)
        var keys: [String] = []
        var errors = 0
        for _ in 0..<30 where keys.count < 60 {
            guard let event = try await client.next() else { break }
            switch event.event {
            case "rows":
                keys += rowKeys(event.data)
                if keys.count < 60 { #expect(try await post(dashboard.port, next) == 202) }
            case "error":
                errors += 1
                let body = try JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any]
                #expect(body?["retryable"] as? Bool == true)
                #expect((body?["message"] as? String)?.contains("503") == true)
                #expect(try await post(dashboard.port, next) == 202)   // Retry
            default: break
            }
        }
        #expect(errors >= 2)
        #expect(keys == (1...60).map(String.init))
    }

    @Test("an unreadable Last-Event-ID starts over visibly with a reset")
    func garbageLastEventID() async throws {
        let dashboard = try startDashboard(items: 20, batchSize: 10)
        defer { dashboard.shutdown() }
        let client = try await SSEClient(port: dashboard.port, path: "/tables/customers/stream", lastEventID: "v1.!!garbage")
        let (reset, skipped) = try await client.next(named: "reset")
        #expect(skipped.map(\.event) == ["session"])
        #expect(reset.id != nil)
        #expect(rowKeys(try await client.next(named: "rows").event.data).first == "1")
    }

    @Test("an empty upstream completes at once with total 0")
    func emptyTable() async throws {
        let dashboard = try startDashboard(items: 0, batchSize: 10)
        defer { dashboard.shutdown() }
        let client = try await SSEClient(port: dashboard.port, path: "/tables/customers/stream")
        let complete = try await client.next(named: "complete").event
        #expect(complete.data == #"{"total":0}"#)
    }

    @Test("heartbeat comments keep an idle stream alive")
    func heartbeats() async throws {
        let dashboard = try startDashboard(items: 30, batchSize: 10, heartbeatSeconds: 1)
        defer { dashboard.shutdown() }
        let client = try await SSEClient(port: dashboard.port, path: "/tables/customers/stream")
        _ = try await client.next(named: "rows")
        // Nothing but heartbeats is sent until demand: a `: ping` comment (and, every other interval, a
        // `heartbeat` event for pages, which cannot see comments) and no rows.
        var sawComment = false
        for _ in 0..<12 {
            guard let line = try await client.connection.readLine() else { break }
            #expect(!line.hasPrefix("event: rows"))
            if line.hasPrefix(":") {
                sawComment = true
                break
            }
        }
        #expect(sawComment)
    }
}

/// A dashboard serving table `held` over a fixture upstream whose every reply (`reply`) waits for `gate` (the test
/// releases it).
private func withHeldTable(reply: FixtureReply = heldTablePage,
                           _ body: (ReplyGate, FixtureServer, Dashboard) async throws -> Void) async throws {
    let gate = ReplyGate()
    try await withDashboard(over: try FixtureServer { _ in .held(gate, reply) },
                            config: { heldTableConfig(port: $0.port) }, file: "held.json") { dashboard, upstream in
        try await body(gate, upstream, dashboard)
    }
}

/// The fixture upstream's page for table `held`: ten items, and a next cursor (more would follow on demand).
private let heldTablePage = FixtureReply.json(
    "{\"data\":[" + (1...10).map { "{\"id\":\($0)}" }.joined(separator: ",") + "],\"next_cursor\":\"p2\"}")

/// Table `held` over the fixture upstream on `port`: batches of 10, no retries, no prefetch, a 60 s page cache
/// (viewers arriving together share the fetch in flight; one arriving after it is served from memory), and a
/// low-speed limit longer than any hold (a held reply sends nothing until the test releases it).
private func heldTableConfig(port: UInt16) -> String {
    """
        {"tables": [{"name": "held", "batchSize": 10,
          "request": {"url": "http://127.0.0.1:\(port)/items", "timeoutSeconds": 60},
          "items": "data", "key": "id", "columns": [{"title": "ID", "path": "id", "format": "number"}],
          "pagination": {"style": "cursor", "cursorPath": "next_cursor", "cursorParameter": "cursor"},
          "retry": {"attempts": 1}, "cache": {"ttlSeconds": 60, "prefetch": false}}],
         "upstream": {"lowSpeedSeconds": 600}}
        """
}
