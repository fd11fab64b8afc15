import HTTPServerTesting
import TestSupport
import Testing
@testable import HTTPServer

/// What a stream writes while it opens (on its loop, inside the response's `open`) is queued with the response head
/// and sent by one flush after `open` returns: the head first, every event whole and in order, also when the writes
/// outgrow the queue's hold (`roomThreshold`, then they are sent as any write), and a stream finished inside `open`
/// still gets everything before its end.
@Suite struct StreamOpeningTests {
    static func responder(finish: Bool) -> any HTTPResponder {
        var builder = RouterBuilder()
        builder.get("/events") { _, _ in
            .now(.eventStream { writer in
                writer.send(SSEEvent(event: "first", id: "1", data: "small"))
                writer.send(SSEEvent(event: "big", id: "2", data: String(repeating: "x", count: 40_000)))
                writer.send(SSEEvent(event: "last", id: "3", data: "after"))
                if finish { writer.finish() }
            })
        }
        return builder.build()
    }

    @Test(arguments: [false, true])
    func writesWhileOpeningArriveWholeAndInOrder(finish: Bool) async throws {
        // A 64 KB limit holds at most 16 KB while opening: the 40 KB event goes out as any write does.
        try await withLiveServer({ config in
            config.eventLoopCount = 1
            config.maxWriteBufferBytes = 64 * 1024
        }, responder: Self.responder(finish: finish)) { _, port in
            let client = try TestConnection(port: port)
            defer { client.closeNow() }
            try client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try await client.readHead()
            #expect(head.status == 200)
            var parser = SSEParser()
            var events: [(String, String?, Int)] = []
            for _ in 0..<3 {
                let event = try #require(try await client.readEvent(&parser), "the stream ended early")
                events.append((event.event, event.id, event.data.count))
            }
            #expect(events.map(\.0) == ["first", "big", "last"])
            #expect(events.map(\.1) == ["1", "2", "3"])
            #expect(events.map(\.2) == [5, 40_000, 5])
            if finish { #expect(try await client.isClosedByServer()) }
        }
    }
}
