import Foundation
import HTTPServerTesting
import Synchronization
import TestSupport
import Testing
@testable import HTTPServer

/// `StreamWriter.waitForRoom()`: a producer that makes its bytes as it goes (an export) is paced by its reader, so it
/// sends any length through a small write buffer without being dropped as a slow consumer.
@Suite(.serialized) struct StreamRoomTests {
    final class Produced: Sendable {
        let count = Atomic<Int>(0)
    }

    @Test func aProducerThatWaitsForRoomSendsSixteenMegabytesThroughA64KBufferIntact() async throws {
        let chunk = 16 * 1024, chunks = 1_024
        let produced = Produced()
        var builder = RouterBuilder()
        builder.get("/file") { _, _ in
            .now(HTTPResponse(status: .ok, headers: ["Content-Type": "application/octet-stream"], body: .stream { writer in
                let task = Task {
                    for index in 0..<chunks where writer.isOpen {
                        writer.write([UInt8](repeating: UInt8(index % 251), count: chunk))
                        produced.count.add(1, ordering: .relaxed)
                        await writer.waitForRoom()
                    }
                    writer.finish()
                }
                writer.onClose { task.cancel() }
            }))
        }
        try await withLiveServer({ config in
            config.eventLoopCount = 1
            config.maxWriteBufferBytes = 64 * 1024
            // The reader reads 16 MB a chunk at a time on the shared pool: a starved run may leave the window at
            // zero for longer than the dead-peer (30 s) and idle (60 s) timers, which would end the stream.
            config.deadPeerTimeout = nil
            config.idleTimeout = .seconds(3_600)
        }, responder: builder.build()) { server, port in
            let client = try TestConnection(port: port)
            try client.send("GET /file HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readHead().status == 200)
            for index in 0..<chunks {
                let bytes = try await client.readBytes(chunk)
                guard bytes.allSatisfy({ $0 == UInt8(index % 251) }) else {
                    Issue.record("chunk \(index) is not intact")
                    return
                }
            }
            #expect(produced.count.load(ordering: .relaxed) == chunks)
            #expect(server.statistics.droppedSlowConsumers == 0, "without waiting, the 16 MB overflow the 64 KB buffer")
        }
    }

    @Test func waitingReturnsOnceTheStreamEnds() async throws {
        let writer = StreamWriter { _ in }
        await writer.waitForRoom()  // an in-memory writer has no buffer: at once
        writer.close()
        await writer.waitForRoom()
        #expect(!writer.isOpen)
    }
}
