import HTTPServer
import HTTPServerTesting
import RowstreamTesting
import TestSupport
import Testing
@testable import RowstreamKit

/// docs/PROTOCOL.md, "A session that ended": a demand that races its stream's end (a `next` in flight when a proxy
/// cut the stream) is told the session ended (`204`, `Rowstream-Session: ended`), not `404`; so is any well-formed id
/// this server does not hold; a malformed id, or one of another table, is still `404`; the memory of ended sessions
/// is bounded in count and in time.
@Suite("A session that ended")
struct EndedSessionTests {
    @Test("next and reload of a session whose stream just closed answer 204 ended; another table's 404")
    func demandAfterTheStreamEnded() async throws {
        let server = try testServer([peopleTable(offsetSource(people(40))), peopleTable(offsetSource(people(5)), name: "other")])
        defer { server.shutdown() }
        let stream = try await server.client.stream("/tables/people/stream")
        let session = try object(try await stream.next(named: "session").event.data)
        let next = try #require(session["next"] as? String), reload = try #require(session["reload"] as? String)
        let id = try #require(session["session"] as? String)
        _ = try await stream.next(named: "rows")
        #expect(await server.client.post(next).status == .accepted, "open: demand accepted")
        stream.close()  // the proxy cut the stream: its close ends the session

        for path in [next, reload] {
            let late = await server.client.post(path)
            #expect(late.status == .noContent, "POST \(path): \(late.status)")
            #expect(late.headers["Rowstream-Session"] == "ended")
            #expect(late.body.isEmpty)
        }
        let frame = await server.client.get(next, headers: ["Turbo-Frame": "more"])
        #expect(frame.status == .ok)
        #expect(frame.headers["Rowstream-Session"] == "ended")
        #expect(frame.text == "<turbo-frame id=\"more\"></turbo-frame>")

        let otherTable = await server.client.post("/tables/other/sessions/\(id)/next")
        #expect(otherTable.status == .notFound, "an ended session is only its own table's")
        #expect(otherTable.headers["Rowstream-Session"] == nil)
    }

    @Test("a well-formed id this server does not hold (a restart, another instance, long ago) is ended; malformed 404")
    func demandForASessionNeverHeldHere() async throws {
        let server = try testServer([peopleTable(offsetSource(people(40))), peopleTable(offsetSource(people(5)), name: "other")])
        defer { server.shutdown() }
        // An id from another instance's (or an earlier run's) `session` event: its stream is not here.
        let elsewhere = "/tables/people/sessions/\(SessionID.make(tag: 7).text)"
        for path in [elsewhere + "/next", elsewhere + "/reload"] {
            let late = await server.client.post(path)
            #expect(late.status == .noContent, "POST \(path): \(late.status)")
            #expect(late.headers["Rowstream-Session"] == "ended")
        }
        let frame = await server.client.get(elsewhere + "/next", headers: ["Turbo-Frame": "more"])
        #expect(frame.status == .ok && frame.headers["Rowstream-Session"] == "ended")
        for malformed in ["0123", "0123456789ABCDEF0123456789ABCDEF", "<script>"] {
            #expect(await server.client.post("/tables/people/sessions/\(malformed)/next").status == .notFound)
        }
        #expect(await server.client.post("/tables/nope/sessions/\(SessionID.make().text)/next").status == .notFound)

        // An open session named under another table's URL is a wrong URL, not a late one.
        let stream = try await server.client.stream("/tables/people/stream")
        defer { stream.close() }
        let id = try #require(try object(try await stream.next(named: "session").event.data)["session"] as? String)
        #expect(await server.client.post("/tables/other/sessions/\(id)/next").status == .notFound)
    }

    static let start = ContinuousClock.now

    static func id(_ n: Int) -> SessionID {
        SessionID(String(repeating: "0", count: 32 - String(n, radix: 16).count) + String(n, radix: 16))!
    }

    @Test("remembered for the lifetime, then forgotten; of its own table only")
    func lifetime() {
        var ended = EndedSessions(lifetime: .seconds(10), capacity: 100)
        ended.record(Self.id(1), table: "t", at: Self.start)
        ended.record(Self.id(2), table: "t", at: Self.start + .seconds(5))
        #expect(ended.contains(Self.id(1), table: "t", at: Self.start + .seconds(10)))
        #expect(!ended.contains(Self.id(1), table: "u", at: Self.start))
        #expect(!ended.contains(Self.id(3), table: "t", at: Self.start))
        #expect(!ended.contains(Self.id(1), table: "t", at: Self.start + .seconds(11)), "past its lifetime")
        ended.record(Self.id(3), table: "t", at: Self.start + .seconds(12))
        #expect(ended.count == 2, "recording drops the ids past their lifetime")
        #expect(ended.contains(Self.id(2), table: "t", at: Self.start + .seconds(12)))
    }

    @Test("at most capacity ids, the oldest forgotten first, over many times the capacity")
    func capacity() {
        var ended = EndedSessions(lifetime: .seconds(3_600), capacity: 1_000)
        for n in 1...25_000 { ended.record(Self.id(n), table: "t", at: Self.start + .milliseconds(n)) }
        #expect(ended.count == 1_000)
        let now = Self.start + .seconds(30)
        #expect(ended.contains(Self.id(25_000), table: "t", at: now))
        #expect(ended.contains(Self.id(24_001), table: "t", at: now))
        #expect(!ended.contains(Self.id(24_000), table: "t", at: now))
        #expect(!ended.contains(Self.id(1), table: "t", at: now))
    }
}
