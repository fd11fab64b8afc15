import Dashboard
import Foundation
import HTTPServerTesting
import TestSupport
import Testing

/// Promises of docs/PROTOCOL.md that had no test (issue 12, item 8), each against a live dashboard on the demo
/// upstream. Streams are read as a client would: `heartbeat` events and `: ping` comments may come anywhere.
@Suite("docs/PROTOCOL.md promises")
struct ProtocolPromiseTests {
    /// The events before one, less heartbeats.
    static func names(_ skipped: [ReceivedEvent]) -> [String] {
        skipped.map(\.event).filter { $0 != "heartbeat" }
    }

    /// POSTs `path` until it answers `status` (the session ends with its stream, on the server's own time);
    /// returns the last status. Polls with TestSupport's `eventually` (its generous bound).
    static func postUntil(_ port: Int, _ path: String, answers status: Int) async throws -> Int {
        var last = 0
        _ = try await eventually {
            last = try await fetch(port, "POST", path).status
            return last == status
        }
        return last
    }

    @Test("`next` and `reload` on an ended session answer 204, `Rowstream-Session: ended`")
    func endedSessionIs204() async throws {
        let dashboard = try startDashboard(items: 20, batchSize: 10)
        defer { dashboard.shutdown() }
        let client = try await SSEClient(port: dashboard.port, path: "/tables/customers/stream")
        let session = try sessionInfo(try await client.next(named: "session").event)
        let next = try #require(session["next"] as? String), reload = try #require(session["reload"] as? String)
        _ = try await client.next(named: "rows")
        #expect(try await post(dashboard.port, next) == 202)
        #expect(try await client.next(named: "rows").event.data.hasSuffix("<!--rs:last-->"))
        _ = try await client.next(named: "complete")
        #expect(try await Self.postUntil(dashboard.port, next, answers: 204) == 204)
        let late = try await fetch(dashboard.port, "POST", reload)
        #expect(late.status == 204)
        #expect(late.headers["rowstream-session"] == "ended")
    }

    @Test("a reconnect after the final `rows` gets `session` then `complete`")
    func reconnectAfterFinalRows() async throws {
        let dashboard = try startDashboard(items: 20, batchSize: 10)
        defer { dashboard.shutdown() }
        let client = try await SSEClient(port: dashboard.port, path: "/tables/customers/stream")
        let next = try #require(try sessionInfo(try await client.next(named: "session").event)["next"] as? String)
        _ = try await client.next(named: "rows")
        #expect(try await post(dashboard.port, next) == 202)
        let last = try await client.next(named: "rows").event
        client.connection.closeNow()  // cut before `complete` is read

        let again = try await SSEClient(port: dashboard.port, path: "/tables/customers/stream", lastEventID: last.id)
        #expect(again.status == 200)
        let (complete, skipped) = try await again.next(named: "complete")
        #expect(Self.names(skipped) == ["session"])
        #expect(complete.data == #"{"total":20}"#)
    }

    @Test("resuming from a `reset` id starts at the first batch, on demand, with no second reset")
    func resumeFromResetID() async throws {
        let dashboard = try startDashboard(items: 30, batchSize: 10)
        defer { dashboard.shutdown() }
        let client = try await SSEClient(port: dashboard.port, path: "/tables/customers/stream")
        let session = try sessionInfo(try await client.next(named: "session").event)
        _ = try await client.next(named: "rows")
        #expect(try await post(dashboard.port, try #require(session["reload"] as? String)) == 202)
        let reset = try await client.next(named: "reset").event
        client.connection.closeNow()

        let again = try await SSEClient(port: dashboard.port, path: "/tables/customers/stream", lastEventID: reset.id)
        let resumed = try sessionInfo(try await again.next(named: "session").event)
        #expect(try await post(dashboard.port, try #require(resumed["next"] as? String)) == 202)
        let (rows, skipped) = try await again.next(named: "rows")
        #expect(!Self.names(skipped).contains("reset"))
        #expect(rowKeys(rows.data) == (1...10).map(String.init))
        #expect(rows.data.contains("data-index=\"0\""))
    }

    @Test("`rows?after=` answers 502 when the upstream fails")
    func rowsAfterUpstreamFailureIs502() async throws {
        let dashboard = try startDashboard(items: 20, batchSize: 10, failEvery: 1)
        defer { dashboard.shutdown() }
        let answer = try await fetch(dashboard.port, "GET", "/tables/customers/rows?after=")
        #expect(answer.status == 502)
        #expect(!answer.body.contains("127.0.0.1"), "no upstream address")
    }

    @Test("`rows?after=` takes a page stream's token (that table's entry)")
    func rowsAfterTakesAPageToken() async throws {
        let dashboard = try startDashboard(items: 40, batchSize: 10) { $0.page = true }
        defer { dashboard.shutdown() }
        let page = try await SSEClient(port: dashboard.port, path: "/pages/overview/stream")
        let first = try await page.next(named: "customers:rows").event
        let token = try #require(first.id)
        #expect(token.hasPrefix("p1."))
        let encoded = try #require(token.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let answer = try await fetch(dashboard.port, "GET", "/tables/customers/rows?after=\(encoded)")
        #expect(answer.status == 200)
        #expect(rowKeys(answer.body) == (11...20).map(String.init))
        #expect(answer.body.contains("data-index=\"10\""))
    }

    @Test("the page without JavaScript ends an upstream error with the message and a Try again link")
    func noScriptPageUpstreamError() async throws {
        let dashboard = try startDashboard(items: 20, batchSize: 10, failEvery: 1)
        defer { dashboard.shutdown() }
        let connection = try TestConnection(port: dashboard.port, timeoutSeconds: 30)
        try connection.send("GET /tables/customers/html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let answer = try await connection.readResponse()
        #expect(answer.status == 200)
        let ending = try #require(answer.body.range(of: "id=\"rs-error\"")).upperBound
        let tail = answer.body[ending...]
        #expect(tail.contains("503"), "the message")
        #expect(tail.contains(">Try again</a>"))
        #expect(tail.contains("href=\"/tables/customers/html"), "the link retries the same page")
        #expect(tail.hasSuffix("</html>\n"))
        #expect(!answer.body.contains("id=\"rs-end\"") && !answer.body.contains("id=\"rs-next\""))
    }

    @Test("live changes go only to streams without a choice")
    func liveChangesSkipStreamsWithAChoice() async throws {
        // Bench stamps: every refresh changes every head row, so each refresh after the first sends an `update`.
        let dashboard = try startDashboard(items: 40, batchSize: 10) { $0.controls = true; $0.benchStamp = true }
        defer { dashboard.shutdown() }
        let plain = try await SSEClient(port: dashboard.port, path: "/tables/customers/stream")
        let chosen = try await SSEClient(port: dashboard.port, path: "/tables/customers/stream?p.sort=name")
        _ = try await plain.next(named: "rows")
        let session = try sessionInfo(try await chosen.next(named: "session").event)
        _ = try await chosen.next(named: "rows")
        #expect(try await fetch(dashboard.port, "POST", "/tables/customers/refresh").status == 200)
        _ = try await plain.next(named: "update")
        // The choice's stream: its next batch comes after anything the refresh wrote, and nothing live came.
        #expect(try await post(dashboard.port, try #require(session["next"] as? String)) == 202)
        let (_, skipped) = try await chosen.next(named: "rows")
        #expect(Self.names(skipped).allSatisfy { !["insert", "update", "remove"].contains($0) }, "\(skipped)")
    }
}
