import Foundation
import HTTPServerTesting
import Locking
import Synchronization
import TestSupport
import Testing
@testable import HTTPServer

/// Slow and dead consumers: bounded buffers, memory independent of the bytes sent, stalled and reset peers closed.
@Suite(.serialized) struct SlowConsumerTests {
    @Test func writeBufferStorageDoesNotGrowWithTheBytesSent() {
        var buffer = WriteBuffer()
        let event = [UInt8](repeating: 0x61, count: 700)
        var total = 0
        var peak = 0
        // 200,000 events (140 MB) through a buffer a slow socket drains in uneven pieces, never all at once
        // for long stretches: storage must stay near the most ever unsent, not the total.
        for round in 0..<200_000 {
            buffer.append(event)
            total += event.count
            if round % 3 != 0 { buffer.consume(min(buffer.count, 1000 + round % 500)) }
            if round % 5_000 == 4_999 { buffer.consume(buffer.count) }
            peak = max(peak, buffer.storageCapacity)
        }
        #expect(total > 100_000_000)
        #expect(peak < 2 * 1024 * 1024, "storage grew to \(peak) bytes")
    }

    @Test func aReadingClientGetsMegabytesThroughASmallBufferInOrder() async throws {
        let writerBox = Lock<StreamWriter?>(nil)
        var builder = RouterBuilder()
        builder.get("/events") { _, _ in .now(.eventStream { writer in writerBox.withLock { $0 = writer } }) }
        // Heartbeats every 5 ms: `: ping` comments land between the events, as they do on a slow (sanitized, busy)
        // run; the client parses the stream as a browser does, so they are skipped wherever they fall.
        try await withLiveServer({ config in
            config.eventLoopCount = 1
            config.maxWriteBufferBytes = 64 * 1024
            config.heartbeatInterval = .milliseconds(5)
        }, responder: builder.build()) { server, port in
            let client = try TestConnection(port: port)
            try client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readHead().status == 200)
            #expect(await eventually { writerBox.withLock { $0 != nil } })
            let writer = try #require(writerBox.withLock { $0 })
            var parser = SSEParser()
            let padding = String(repeating: "x", count: 400)
            var received: [String] = []
            var intact = true
            // 10,000 events (about 4.3 MB, 66 times the buffer limit), written in bursts the client then reads.
            for burst in 0..<100 {
                for index in 0..<100 { writer.send(SSEEvent(id: "\(burst * 100 + index)", data: padding)) }
                for _ in 0..<100 {
                    let event = try #require(try await client.readEvent(&parser), "the stream ended early")
                    received.append(event.id ?? "none")
                    intact = intact && event.data == padding
                }
            }
            #expect(received == (0..<10_000).map(String.init), "events lost, doubled or out of order")
            #expect(intact, "an event's data was cut")
            #expect(parser.retryMilliseconds != nil)
            #expect(!parser.comments.isEmpty, "no heartbeat fell between the events: the test proved nothing")
            #expect(writer.isOpen)
            #expect(server.statistics.droppedSlowConsumers == 0)
        }
    }

    @Test func aStalledReaderUnderTheBufferLimitIsClosedByTheWriteTimeout() async throws {
        let closed = Atomic<Int>(0)
        let writerBox = Lock<StreamWriter?>(nil)
        var builder = RouterBuilder()
        builder.get("/events") { _, _ in
            .now(.eventStream { writer in
                writer.onClose { closed.add(1, ordering: .relaxed) }
                writerBox.withLock { $0 = writer }
            })
        }
        try await withLiveServer({ config in
            config.eventLoopCount = 1
            config.idleTimeout = .milliseconds(300)
            config.heartbeatInterval = .milliseconds(50)
            config.maxWriteBufferBytes = 8 * 1024 * 1024
        }, responder: builder.build()) { server, port in
            // The client never reads after the head: 4 MB fills the kernel buffers, the rest stays queued below
            // the limit, and no write makes progress; heartbeats keep coming, yet the connection must be closed.
            let client = try TestConnection(port: port, receiveBufferBytes: 4096)
            try client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = await eventually { writerBox.withLock { $0 != nil } }
            let writer = try #require(writerBox.withLock { $0 })
            writer.write([UInt8](repeating: 0x78, count: 4 * 1024 * 1024))
            #expect(await eventually { closed.load(ordering: .relaxed) == 1 })
            #expect(server.statistics.droppedSlowConsumers == 0)
            #expect(await eventually { server.statistics.openConnections == 0 })
        }
    }

    @Test func aPeerThatResetsIsClosedAndItsStreamEnds() async throws {
        let closed = Atomic<Int>(0)
        var builder = RouterBuilder()
        builder.get("/events") { _, _ in
            .now(.eventStream { writer in writer.onClose { closed.add(1, ordering: .relaxed) } })
        }
        try await withLiveServer({ $0.eventLoopCount = 1 }, responder: builder.build()) { server, port in
            // The client reads the head, then goes away with an RST (SO_LINGER 0) while the stream is idle.
            let client = try TestConnection(port: port)
            try client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try await client.read(until: "\r\n\r\n")
            #expect(await eventually { server.statistics.openStreams == 1 })
            var linger = linger(l_onoff: 1, l_linger: 0)
            setsockopt(client.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
            client.closeNow()
            #expect(await eventually { closed.load(ordering: .relaxed) == 1 })
            #expect(await eventually { server.statistics.openStreams == 0 })
            #expect(await eventually { server.statistics.openConnections == 0 })
        }
    }
}
