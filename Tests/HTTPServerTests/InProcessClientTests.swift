import HTTPServer
import HTTPServerTesting
import Locking
import Testing

/// The in-process harness itself: what it hands back is what the responder produced, as the server would send it.
@Suite struct InProcessClientTests {
    /// A router with a `.now`, a `.later`, a finishing stream and an open event stream.
    func client(onClose: @escaping @Sendable () -> Void = {}) -> InProcessClient {
        var builder = RouterBuilder()
        builder.get("/now/{name}") { request, parameters in
            let query = request.queryValue("q") ?? "-", header = request.headers["X-A"] ?? "-"
            return .now(.text("now \(parameters["name"] ?? "-") \(query) \(header)"))
        }
        builder.post("/later") { request, _ in
            .later {
                await Task.yield()
                return .json(request.body, status: .accepted)
            }
        }
        builder.get("/html") { _, _ in
            .now(HTTPResponse(status: .ok, body: .stream { writer in
                writer.write(Array("a\nb".utf8))
                writer.write(Array("c\n".utf8))
                writer.finish()
            }))
        }
        builder.get("/events") { _, _ in
            .now(.eventStream { writer in
                writer.onClose(onClose)
                writer.write(Array(": ping\n\n".utf8))
                for index in 1...3 { writer.send(SSEEvent(event: "n", id: "\(index)", data: "\(index)")) }
            })
        }
        builder.get("/empty") { _, _ in .now(HTTPResponse(status: .noContent, body: .bytes(Array("x".utf8)))) }
        return InProcessClient(builder.build())
    }

    @Test func requestValuesReachTheRouteAndLaterAnswersAreAwaited() async {
        let now = await client().get("/now/a%20b?q=x+y", headers: ["X-A": "1"])
        #expect(now.status == .ok)
        #expect(now.text == "now a b x y 1")
        #expect(now.headers["Content-Type"] == "text/plain; charset=utf-8")
        let later = await client().post("/later", body: Array("{\"k\":1}".utf8))
        #expect(later.status == .accepted)
        #expect(later.text == "{\"k\":1}")
        #expect(await client().execute(.delete, "/later").status == .methodNotAllowed)
    }

    @Test func headAnd204HaveNoBodyAsOnTheWire() async {
        let head = await client().execute(.head, "/now/a")
        #expect(head.status == .ok)
        #expect(head.body.isEmpty)
        #expect(await client().get("/empty").body.isEmpty)
        #expect(await client().execute(.head, "/events").stream == nil, "HEAD opens no stream")
    }

    @Test func aStreamIsReadByLinesToItsEnd() async throws {
        let stream = try #require(await client().get("/html").stream)
        #expect(try await stream.nextLine() == "a")
        #expect(try await stream.nextLine() == "bc", "a line split across writes is joined")
        #expect(try await stream.nextLine() == nil)
        #expect(stream.isFinished)
    }

    @Test func theFirstEventsOfAnEventStreamAndClose() async throws {
        let closes = Counter()
        let response = await client(onClose: { closes.add() }).get("/events")
        #expect(response.headers["Content-Type"] == "text/event-stream")
        let stream = try #require(response.stream)
        let events = try await stream.events(2)
        #expect(events.map(\.data) == ["1", "2"], "the retry line and the comment are no events")
        #expect(try await stream.next(named: "n").event.id == "3")
        #expect(closes.value == 0)
        stream.close()
        #expect(closes.value == 1, "a client-side close runs the handler's onClose")
        #expect(try await stream.nextEvent() == nil)
    }

    @Test func aStalledStreamFailsTheReadInsteadOfHanging() async throws {
        let stream = try #require(await client().get("/events").stream)
        defer { stream.close() }
        _ = try await stream.events(3)
        await #expect(throws: InProcessStream.Failure.self) { try await stream.nextEvent(timeout: .milliseconds(50)) }
    }
}

/// Counts calls from any thread.
private final class Counter: Sendable {
    private let count = Lock(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
