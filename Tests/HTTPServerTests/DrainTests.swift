import Glibc
import HTTPServerTesting
import TestSupport
import Testing
@testable import HTTPServer

/// `shutdown()` drains (issue 15, part 4): the listener closes at once, every event stream is told to reconnect
/// after a delay of its own within `drainWindow` and closed, an answer in flight still finishes.
@Suite struct DrainTests {
    /// `/events`: an event stream that stays open; `/slow`: an answer held at `gate`.
    static func routes(_ gate: ReplyGate) -> any HTTPResponder {
        var builder = RouterBuilder()
        builder.get("/events") { _, _ in .now(.eventStream { _ in }) }
        builder.get("/slow") { _, _ in
            .later {
                _ = await gate.pass()
                return .text("finished")
            }
        }
        return builder.build()
    }

    @Test("shutdown refuses new connections at once, spreads the streams' retry over the window, closes them, finishes an answer in flight")
    func shutdownDrains() async throws {
        let gate = ReplyGate()
        try await withLiveServer({ config in
            // The held answer, not the grace, ends this shutdown: a grace no starved run outlasts (the test always
            // releases the answer).
            config.shutdownGrace = .seconds(3_600)
            config.drainWindow = .seconds(8)
        }, responder: Self.routes(gate)) { server, port in
            defer { gate.releaseAll() }   // a failed expectation must not hold the server for the grace time
            let streams = try (0..<8).map { _ in try TestConnection(port: port) }
            for client in streams {
                try client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = try await client.read(until: "retry: 2000\n\n")
            }
            let slow = try TestConnection(port: port)
            try slow.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await eventually { gate.waiting == 1 })

            let drained = Task { try await offPool { server.shutdown() } }
            // Refused while the held answer still keeps the server running: the listener closed first.
            #expect(await eventually { (try? TestConnection(port: port)) == nil })
            var hints: [Int] = []
            for client in streams {
                var parser = SSEParser()
                while let line = try await client.readLine() { _ = parser.feed(line[...]) }   // to the server's close
                if let retry = parser.retryMilliseconds { hints.append(retry) }
            }
            #expect(hints.count == streams.count, "every stream got a retry hint before it closed")
            #expect(hints.allSatisfy { (1...8_000).contains($0) }, "within the window: \(hints)")
            #expect(Set(hints).count > 1, "spread, not one value: \(hints)")
            #expect(gate.waiting == 1, "the answer in flight was still held while the streams closed")

            gate.release()
            let answer = try await slow.readResponse()
            #expect(answer.status == 200)
            #expect(answer.body == "finished")
            #expect(answer.headers["connection"] == "close")
            try await drained.value
            #expect(server.statistics.openConnections == 0)
        }
    }

    @Test("a zero window writes no hint: the stream's own retry stands")
    func zeroWindowWritesNoHint() async throws {
        try await withLiveServer({ $0.drainWindow = .zero }, responder: Self.routes(ReplyGate())) { server, port in
            let client = try TestConnection(port: port)
            try client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try await client.read(until: "retry: 2000\n\n")
            try await offPool { server.shutdown() }
            var parser = SSEParser()
            while let line = try await client.readLine() { _ = parser.feed(line[...]) }
            #expect(parser.retryMilliseconds == nil)
        }
    }
}
