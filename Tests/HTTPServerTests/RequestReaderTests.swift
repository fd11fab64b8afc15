import Testing
import TestSupport
@testable import HTTPServer

/// A connection holds a request parser only while it reads requests: an open stream holds none (its input is read
/// and discarded), a keep-alive connection keeps its own, and what a stream's peer sends after its request is never
/// parsed or answered.
@Suite struct RequestReaderTests {
    static let responder: Router = {
        var builder = RouterBuilder()
        builder.get("/events") { _, _ in .now(.eventStream { writer in writer.send(SSEEvent(event: "hello", data: "1")) }) }
        builder.get("/plain") { _, _ in .now(.text("plain")) }
        return builder.build()
    }()

    @Test func anOpenStreamHoldsNoParserAndParsesNothingMore() async throws {
        // One loop: the stream's bytes, sent first, are read in the pass that answers the keep-alive request or before.
        try await withLiveServer({ $0.eventLoopCount = 1 }, responder: Self.responder) { server, port in
            let stream = try TestConnection(port: port)
            // A request pipelined after the stream's: read and discarded with the rest of the stream's input.
            try stream.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\nGET /plain HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await stream.readHead().status == 200)
            let idle = try TestConnection(port: port)
            try idle.send("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await idle.readResponse().body == "plain")
            // The stream's connection holds none; the keep-alive one keeps its own for its next request.
            #expect(try await offPool { server.requestReadersHeld() } == 1)
            try stream.send("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n")
            try idle.send("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await idle.readResponse().body == "plain")
            // Three requests parsed: the stream's and the keep-alive connection's two, none sent after the stream's.
            #expect(server.statistics.totalRequests == 3)
            #expect(try await offPool { server.largestBufferedInput() } == 0)
            #expect(try await offPool { server.requestReadersHeld() } == 1)
        }
    }
}
