import Foundation
import Locking
import Synchronization
import Testing
import TestSupport
@testable import HTTPServer

/// Live tests on 127.0.0.1, port 0, with the shared socket client (TestSupport). Every wait is bounded and runs
/// off the cooperative pool.
@Suite(.serialized) struct LiveServerTests {
    static func echo() -> Router {
        var builder = RouterBuilder()
        builder.get("/hello/{name}") { _, parameters in .now(.text("hello \(parameters["name"] ?? "")")) }
        builder.get("/later") { _, _ in .later { await Task.yield(); return .text("later") } }
        return builder.build()
    }

    @Test func keepAliveServesTwoRequestsOnOneConnection() async throws {
        try await withLiveServer(responder: Self.echo()) { server, port in
            let client = try TestConnection(port: port)
            try client.send("GET /hello/a HTTP/1.1\r\nHost: x\r\n\r\n")
            let first = try await client.readResponse()
            try client.send("GET /hello/b HTTP/1.1\r\nHost: x\r\n\r\n")
            let second = try await client.readResponse()
            #expect(first.body == "hello a")
            #expect(second.body == "hello b")
            #expect(server.statistics.totalConnections == 1)
            #expect(server.statistics.totalRequests == 2)
        }
    }

    @Test func pipelinedAndLaterResponsesKeepOrder() async throws {
        try await withLiveServer(responder: Self.echo()) { _, port in
            let client = try TestConnection(port: port)
            try client.send("GET /later HTTP/1.1\r\nHost: x\r\n\r\nGET /hello/z HTTP/1.1\r\nHost: x\r\n\r\nHEAD /hello/h HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().body == "later")
            #expect(try await client.readResponse().body == "hello z")
            let head = try await client.readResponse(head: true)
            #expect(head.status == 200)
            #expect(head.headers["content-length"] == "7")
            try client.send("GET /hello/end HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let last = try await client.readResponse()
            #expect(last.body == "hello end")
            #expect(last.headers["connection"] == "close")
            #expect(try await client.isClosedByServer())
        }
    }

    @Test func garbageGets400AndClose() async throws {
        try await withLiveServer(responder: Self.echo()) { _, port in
            let client = try TestConnection(port: port)
            try client.send("NONSENSE\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.status == 400)
            #expect(response.headers["connection"] == "close")
            #expect(try await client.isClosedByServer())
        }
    }

    @Test func eventStreamReceivesEventsFromAnotherThreadAndSeesDisconnect() async throws {
        let writerBox = Lock<StreamWriter?>(nil)
        let closed = Atomic<Int>(0)
        var builder = RouterBuilder()
        builder.get("/events") { _, _ in
            .now(.eventStream(retryMilliseconds: 500) { writer in
                writer.onClose { closed.add(1, ordering: .relaxed) }
                writerBox.withLock { $0 = writer }
            })
        }
        try await withLiveServer({ $0.heartbeatInterval = .milliseconds(50) }, responder: builder.build()) { server, port in
            let client = try TestConnection(port: port)
            try client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try await client.read(until: "\r\n\r\n")
            #expect(head.contains("Content-Type: text/event-stream"))
            #expect(head.contains("Connection: close"))
            #expect(try await client.read(until: "\n\n") == "retry: 500\n\n")
            #expect(await eventually { writerBox.withLock { $0 != nil } })
            let writer = try #require(writerBox.withLock { $0 })
            Thread.detachNewThread { writer.send(SSEEvent(event: "rows", id: "1", data: "<tr>")) }
            let received = try await client.read(until: "data: <tr>\n\n")
            #expect(received.hasSuffix("event: rows\nid: 1\ndata: <tr>\n\n"))
            #expect(try await client.read(until: ": ping\n\n").hasSuffix(": ping\n\n"))  // heartbeat
            #expect(server.statistics.openStreams == 1)
            client.closeNow()  // disconnect
            #expect(await eventually { closed.load(ordering: .relaxed) == 1 })
            #expect(!writer.isOpen)
            #expect(await eventually { server.statistics.openStreams == 0 })
        }
    }

    @Test func shutdownFinishesOpenStreamsAndReturns() async throws {
        let closed = Atomic<Int>(0)
        let opened = Atomic<Int>(0)
        var builder = RouterBuilder()
        builder.get("/events") { _, _ in
            .now(.eventStream { writer in
                writer.onClose { closed.add(1, ordering: .relaxed) }
                opened.add(1, ordering: .relaxed)
            })
        }
        var config = HTTPServerConfiguration()
        config.port = 0
        config.eventLoopCount = 2
        config.shutdownGrace = .seconds(3)
        config.drainWindow = .zero   // nothing after the stream's start: the reconnect hint is DrainTests' subject
        let server = HTTPServer(configuration: config, responder: builder.build())
        let port = try server.start()
        let streams = try (0..<3).map { _ in try TestConnection(port: port) }
        for client in streams {
            try client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try await client.read(until: "retry: 2000\n\n")
        }
        let idle = try TestConnection(port: port)
        #expect(await eventually { opened.load(ordering: .relaxed) == 3 && server.statistics.openConnections == 4 })
        try await offPool {
            server.shutdown()
            server.waitUntilShutdown()
        }
        #expect(closed.load(ordering: .relaxed) == 3)
        for client in streams { #expect(try await client.isClosedByServer()) }
        #expect(try await idle.isClosedByServer())
        #expect(server.statistics.openConnections == 0)
        #expect(throws: (any Error).self) { try TestConnection(port: port) }
        try await offPool { server.shutdown() }  // idempotent
    }

    @Test func slowConsumerIsDroppedPastTheBufferLimit() async throws {
        let closed = Atomic<Int>(0)
        let writerBox = Lock<StreamWriter?>(nil)
        var builder = RouterBuilder()
        builder.get("/firehose") { _, _ in
            .now(.eventStream { writer in
                writer.onClose { closed.add(1, ordering: .relaxed) }
                writerBox.withLock { $0 = writer }
            })
        }
        try await withLiveServer({ $0.maxWriteBufferBytes = 64 * 1024 }, responder: builder.build()) { server, port in
            let client = try TestConnection(port: port, receiveBufferBytes: 4096)
            try client.send("GET /firehose HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await eventually { writerBox.withLock { $0 != nil } })
            let writer = try #require(writerBox.withLock { $0 })
            let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 16 * 1024)
            // The client never reads: kernel buffers fill, then the server's 64 KiB limit is passed.
            for _ in 0..<2000 where writer.isOpen { writer.write(chunk) }
            #expect(await eventually { closed.load(ordering: .relaxed) == 1 })
            #expect(server.statistics.droppedSlowConsumers == 1)
            #expect(!writer.isOpen)
        }
    }

    @Test func startReportsBindErrorsNamingTheCall() async throws {
        try await withLiveServer(responder: Self.echo()) { _, port in
            var config = HTTPServerConfiguration()
            config.port = port
            config.eventLoopCount = 1
            // SO_REUSEADDR does not allow two listeners on one port.
            let second = HTTPServer(configuration: config, responder: Self.echo())
            do {
                _ = try second.start()
                Issue.record("second bind succeeded")
                try await offPool { second.shutdown() }
            } catch {
                #expect("\(error)".hasPrefix("bind: "))
            }
        }
    }
}
