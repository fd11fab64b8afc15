import Foundation
import RowstreamKit
import TestSupport
import Testing

/// `POST /tables/NAME/refresh` live on port 0 against an upstream whose replies the test releases: concurrent
/// refreshes share one fetch, callers that hang up cancel the work, the route is rate-limited (issue 13, item 2).
@Suite("Refresh single flight")
struct RefreshSingleFlightTests {
    struct UpstreamDown: Error {}

    /// A live table of 5 people whose head comes from `upstream` (or fails when `failing`).
    /// Each fetch passes `upstream` (the test's gate: counted, held until released, given up when cancelled).
    static func table(_ upstream: ReplyGate, limit: RefreshLimit, failing: Bool = false) -> TableBinding {
        let source = BatchSource<Person, Int>(initialToken: 0) { _ in
            guard await upstream.pass() else { throw CancellationError() }
            if failing { throw UpstreamDown() }
            return .completed(people(5))
        }
        var binding = peopleTable(source, name: "live", batchSize: 5)
        binding.live = LiveUpdates(limit: limit)
        return binding
    }

    /// A metric without labels from `/metrics`.
    static func metric(_ name: String, port: Int) async throws -> Int? {
        let text = try await fetch(port, "GET", "/metrics").body
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Double($0.split(separator: " ")[1]) }.map { Int($0) }
    }

    /// Polls (TestSupport's `eventually`: a generous bound) until `metric` is `count`.
    static func waitFor(_ count: Int, _ name: String = "rowstream_live_refresh_waiting", on port: Int) async throws -> Bool {
        try await eventually { try await metric(name, port: port) == count }
    }

    static let request = "POST /tables/live/refresh HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n"
    static let generous = RefreshLimit(burst: 1_000, every: .seconds(1))

    /// A server with the live table over `upstream`.
    static func serve(_ upstream: ReplyGate, limit: RefreshLimit = generous) throws -> RowstreamServer {
        try startServer([table(upstream, limit: limit)])
    }

    /// A connection that has sent a refresh POST and not read its answer.
    static func posted(_ port: Int) throws -> TestConnection {
        let connection = try TestConnection(port: port)
        try connection.send(request)
        return connection
    }

    @Test("100 concurrent POSTs cost at most 2 upstream fetches, one at a time, and all get the answer")
    func hundredConcurrentPosts() async throws {
        let upstream = ReplyGate()
        let server = try Self.serve(upstream)
        defer { server.shutdown() }
        var connections: [TestConnection] = []
        for _ in 0..<100 {
            let connection = try Self.posted(server.port)
            connections.append(connection)
        }
        // Every POST is admitted (waiting) while the first fetch is held; then the test releases the replies.
        #expect(try await Self.waitFor(100, on: server.port))
        #expect(await eventually { upstream.waiting == 1 })
        #expect(upstream.arrived == 1)
        upstream.releaseAll()
        for connection in connections {
            let response = try await connection.readResponse()
            #expect(response.status == 200)
            #expect(try object(response.body)["baseline"] is Bool)
        }
        #expect(upstream.arrived <= 2, "one running fetch and one follow-up, not one per POST")
        #expect(upstream.maxWaiting == 1, "refreshes run one at a time")
    }

    @Test("100 anonymous POSTs that hang up leave nothing queued: a legit refresh is not delayed behind them")
    func anonymousPostsDoNotDelayALegitRefresh() async throws {
        let upstream = ReplyGate()
        let server = try Self.serve(upstream)
        defer { server.shutdown() }
        for _ in 0..<100 {  // the probe: connect, post, close
            let connection = try Self.posted(server.port)
            connection.closeNow()
        }
        // The server has seen them all go (only the /metrics request's own connection is open) and nobody waits.
        #expect(try await Self.waitFor(1, "rowstream_connections_open", on: server.port))
        #expect(try await Self.waitFor(0, on: server.port))
        let before = upstream.arrived
        let legit = try Self.posted(server.port)
        #expect(try await Self.waitFor(1, on: server.port))
        upstream.releaseAll()
        let response = try await legit.readResponse()
        #expect(response.status == 200)
        // Its own fetch, after at most one cancelled fetch of theirs still winding down: no queue of 100.
        #expect(upstream.arrived - before <= 2, "\(upstream.arrived - before) fetches after the legit POST")
        #expect(upstream.maxWaiting == 1)
    }

    @Test("a fetch whose only caller hangs up is cancelled; the next refresh runs normally")
    func hangUpCancelsTheFetch() async throws {
        let upstream = ReplyGate()
        let server = try Self.serve(upstream)
        defer { server.shutdown() }
        let leaving = try Self.posted(server.port)
        #expect(await eventually { upstream.waiting == 1 })
        leaving.closeNow()
        #expect(await eventually { upstream.cancelled == 1 && upstream.waiting == 0 })
        #expect(try await Self.waitFor(0, on: server.port))
        upstream.releaseAll()
        #expect(try await fetch(server.port, "POST", "/tables/live/refresh").status == 200)
        #expect(upstream.arrived == 2)
    }

    @Test("a server that stops cancels the refresh it was running: no fetch outlives it")
    func shutdownCancelsTheRunningFetch() async throws {
        let upstream = ReplyGate()
        let server = try Self.serve(upstream)
        let posted = try Self.posted(server.port)
        defer { posted.closeNow() }
        #expect(await eventually { upstream.waiting == 1 })
        server.shutdown()
        #expect(await eventually { upstream.cancelled == 1 && upstream.waiting == 0 })
    }

    @Test("a POST that would start a fetch past the table's limit gets 429 with Retry-After and fetches nothing")
    func rateLimited() async throws {
        let upstream = ReplyGate()
        let server = try Self.serve(upstream, limit: RefreshLimit(burst: 1, every: .seconds(3_600)))
        defer { server.shutdown() }
        let posted = ContinuousClock.now
        let first = try Self.posted(server.port)
        #expect(await eventually { upstream.waiting == 1 })
        let refused = try await fetch(server.port, "POST", "/tables/live/refresh")
        // The wait left of the hour the first POST took (whole seconds, rounded up): the test's own elapsed time
        // bounds it from below, so a slow machine cannot fail it and a wrong period still does.
        let elapsed = Int((ContinuousClock.now - posted).components.seconds) + 1
        let retryAfter = try #require(refused.headers["retry-after"].flatMap { Int($0) })
        #expect(refused.status == 429)
        #expect((3_600 - elapsed)...3_600 ~= retryAfter, "Retry-After \(retryAfter) after \(elapsed) s")
        #expect(try object(refused.body)["retryAfter"] as? Int == retryAfter)
        upstream.releaseAll()
        #expect(try await first.readResponse().status == 200)
        #expect(try await fetch(server.port, "POST", "/tables/live/refresh").status == 429)
        #expect(upstream.arrived == 1, "a refused POST fetches nothing")
    }

    @Test("a refresh whose upstream fails answers 502 with an error member (docs/PROTOCOL.md)")
    func upstreamFailureIs502() async throws {
        let upstream = ReplyGate()
        upstream.releaseAll()
        let server = try startServer([Self.table(upstream, limit: .standard, failing: true)])
        defer { server.shutdown() }
        let answer = try await fetch(server.port, "POST", "/tables/live/refresh")
        #expect(answer.status == 502)
        #expect(try object(answer.body)["error"] is String)
    }
}
