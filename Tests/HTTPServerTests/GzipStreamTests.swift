import Foundation
import Locking
import Testing
import TestSupport
@testable import HTTPServer

/// Gzip-coded event streams, read as a browser reads them: each event decodes as soon as its bytes arrive, a
/// broadcast event is the same compressed bytes on every gzip viewer's stream, and the trailer checks at the end.
@Suite(.serialized) struct GzipStreamTests {
    @Test func eachEventDecodesAsItArrivesSharedBlocksAreIdenticalAndTheTrailerChecks() async throws {
        try await offPool {
            let fixture = try GzipFixture(acceptEncodings: ["gzip", "br;q=1, GZIP;q=0.5", nil])
            defer { fixture.server.shutdown() }
            let (gzipA, gzipB, plain) = (fixture.clients[0], fixture.clients[1], fixture.clients[2])
            let decoders = [GzipDecoder(), GzipDecoder()]
            // Past the head: the gzip header and the `retry:` line, alone in their own block.
            let retry = Array("retry: 2000\n\n".utf8)
            let opening = GzipStream.header.count + DeflatedBlock(compressing: retry).bytes.count
            for (client, decoder) in zip([gzipA, gzipB], decoders) {
                #expect(try decoder.feed(client.readBytesBlocking(opening)) == retry)
            }
            #expect(try plain.readBytesBlocking(retry.count) == retry)
            // Broadcasts of several sizes (one over 400 KB: past a socket buffer and the compressor's scratch) and each
            // viewer's own events, interleaved.
            for round in 0..<6 {
                let change = rowsEvent(round, rows: [1, 3, 40, 5_000, 2, 1][round])
                let size = StreamWriter.broadcast(change, to: fixture.writers)
                let shared = try #require(size.gzipBytes)
                let wireA = try gzipA.readBytesBlocking(shared)
                let wireB = try gzipB.readBytesBlocking(shared)
                #expect(wireA == wireB)
                #expect(try decoders[0].feed(wireA) == change)  // all of it, from its own bytes: nothing waits
                #expect(try decoders[1].feed(wireB) == change)
                #expect(try plain.readBytesBlocking(change.count) == change)
                for (index, writer) in fixture.writers.enumerated() {
                    writer.write(rowsEvent(100 * index + round, rows: 2))
                }
                for (client, decoder) in zip([gzipA, gzipB], decoders) {
                    let own = rowsEvent(100 * (client === gzipA ? 0 : 1) + round, rows: 2)
                    #expect(try readDecoded(own.count, from: client, decoder) == own)
                }
                #expect(try plain.readBytesBlocking(rowsEvent(200 + round, rows: 2).count) == rowsEvent(200 + round, rows: 2))
            }
            // The end: final block and trailer; zlib checks CRC-32 and length across shared and own blocks.
            for writer in fixture.writers { writer.finish() }
            for (client, decoder) in zip([gzipA, gzipB], decoders) {
                while !decoder.isFinished {
                    let bytes = try client.readAvailableBlocking()
                    guard !bytes.isEmpty else { break }
                    #expect(try decoder.feed(bytes).isEmpty)
                }
                #expect(decoder.isFinished)
                #expect(try client.readAvailableBlocking().isEmpty)
            }
        }
    }

    /// Broadcasts and a viewer's own events queued in one loop pass leave in one send (the end-of-pass flush): the
    /// gzip viewer's blocks go out in the order they were added to its checksum, so the stream decodes whole, with its
    /// trailer, to the events in write order. One loop for both streams: on two, the plain stream's loop may wake for
    /// the first broadcast and send it before the second is handed over (a slow run), which is right but not this test.
    @Test func eventsCoalescedInOnePassDecodeWholeOnAGzipStream() async throws {
        try await offPool {
            let fixture = try GzipFixture(acceptEncodings: ["gzip", nil], eventLoopCount: 1)
            defer { fixture.server.shutdown() }
            let writers = fixture.writers
            let events = (0..<4).map { rowsEvent($0, rows: [3, 40, 1, 500][$0]) }
            let before = fixture.server.statistics.sendsCoalesced
            try onLoop(of: writers[0]) {
                StreamWriter.broadcast(events[0], to: writers)
                writers[0].write(events[1])
                StreamWriter.broadcast(events[2], to: writers)
                writers[0].write(events[3])
                writers[0].finish()
            }
            let decoder = GzipDecoder()
            var decoded: [UInt8] = []
            while !decoder.isFinished {
                let bytes = try fixture.clients[0].readAvailableBlocking()
                guard !bytes.isEmpty else { break }
                decoded += try decoder.feed(bytes)
            }
            #expect(decoder.isFinished, "the trailer came and checked (CRC-32 and length over every block)")
            #expect(decoded == Array("retry: 2000\n\n".utf8) + events.flatMap { $0 })
            let plain = Array("retry: 2000\n\n".utf8) + events[0] + events[2]
            #expect(try fixture.clients[1].readBytesBlocking(plain.count) == plain)
            // Counted on the loop after the send, which a reader may see first.
            _ = eventuallyBlocking { fixture.server.statistics.sendsCoalesced - before >= 3 + 1 }
            #expect(fixture.server.statistics.sendsCoalesced - before == 3 + 1, "the writes were not coalesced")
        }
    }

    @Test func framedEventsWithASharedBodyDecodeOnGzipStreamsAndTheBodyIsCompressedOnce() async throws {
        try await offPool {
            let fixture = try GzipFixture(acceptEncodings: ["gzip", "gzip", nil])
            defer { fixture.server.shutdown() }
            let retry = Array("retry: 2000\n\n".utf8)
            let opening = GzipStream.header.count + DeflatedBlock(compressing: retry).bytes.count
            let decoders = [GzipDecoder(), GzipDecoder()]
            for (client, decoder) in zip(fixture.clients.prefix(2), decoders) {
                #expect(try decoder.feed(client.readBytesBlocking(opening)) == retry)
            }
            #expect(try fixture.clients[2].readBytesBlocking(retry.count) == retry)
            // One body (a batch many viewers get at the same place), each viewer's event with its own id.
            var body = Array(String(repeating: "<tr><td>row</td></tr>", count: 200).utf8)
            FramedSSEEvent.appendEnd(to: &body)
            let events = (0..<3).map { FramedSSEEvent(event: "rows", id: "viewer-\($0)", body: body) }
            #expect(events[0].deflatedBody.bytes == events[1].deflatedBody.bytes)
            let kept = SharedBodyBlocks(capacity: 2)
            #expect(kept.block(for: events[0].body).bytes == kept.block(for: events[1].body).bytes)
            for (writer, event) in zip(fixture.writers, events) { writer.send(event) }
            for (index, (client, decoder)) in zip(fixture.clients.prefix(2), decoders).enumerated() {
                #expect(try readDecoded(events[index].bytes.count, from: client, decoder) == events[index].bytes)
            }
            #expect(try fixture.clients[2].readBytesBlocking(events[2].bytes.count) == events[2].bytes,
                    "a plain stream gets the event as framed")
            // An own (unshared) event on a gzip stream: framed by the event itself, compressed for this stream.
            let own = FramedSSEEvent(event: "rows", id: "own") { $0 += Array("<tr><td>mine</td></tr>".utf8) }
            fixture.writers[0].send(own)
            #expect(try readDecoded(own.bytes.count, from: fixture.clients[0], decoders[0]) == own.bytes)
            for writer in fixture.writers { writer.finish() }
            while !decoders[0].isFinished {
                let bytes = try fixture.clients[0].readAvailableBlocking()
                guard !bytes.isEmpty else { break }
                _ = try decoders[0].feed(bytes)
            }
            #expect(decoders[0].isFinished, "the trailer checks across head, shared and own blocks")
        }
    }

    @Test func aSharedBodyIsKeptByItsStorageNotItsContent() {
        let kept = SharedBodyBlocks(capacity: 2)
        let body = Array(String(repeating: "shared body ", count: 20).utf8)
        let first = kept.block(for: body)
        let copy = body   // the same storage
        #expect(kept.block(for: copy).bytes == first.bytes)
        var other = body  // equal bytes, its own storage
        other.append(0); other.removeLast()
        #expect(kept.block(for: other).bytes == first.bytes, "equal content compresses to equal bytes")
        #expect(kept.count == 2, "but is kept as its own entry")
        _ = kept.block(for: Array("a third body, past the capacity of two".utf8) + body)
        #expect(kept.count == 2)
    }

    @Test func shortWritesAreStoredLongOnesDeflatedAndAnyMixDecodesWithItsTrailer() throws {
        let short = Array(": ping\n\n".utf8)
        let long = rowsEvent(1, rows: 30)
        let stored = DeflatedBlock(compressing: short)
        let deflated = DeflatedBlock(compressing: long)
        #expect(stored.bytes == [0, 8, 0, 0xf7, 0xff] + short)
        #expect(deflated.bytes.suffix(4) == [0, 0, 0xff, 0xff])   // the sync flush: byte-aligned, not final
        #expect(deflated.bytes.count < long.count / 4)
        // One stream of shared and own blocks in any order; the trailer's CRC-32 and length combine them all.
        var stream = GzipStream()
        var wire = GzipStream.header
        for block in [stored, deflated, deflated, stored, DeflatedBlock(compressing: long + short)] {
            stream.append(block)
            wire += block.bytes
        }
        wire += stream.trailer
        #expect(try GzipDecoder.decode(wire) == short + long + long + short + long + short)
    }

    @Test func theHeadSaysGzipOnlyToClientsThatAskForIt() async throws {
        try await offPool {
            let fixture = try GzipFixture(acceptEncodings: ["deflate, gzip;q=0.1", "gzip;q=0", "identity", nil])
            defer { fixture.server.shutdown() }
            #expect(fixture.heads[0]["content-encoding"] == "gzip")
            #expect(fixture.heads[0]["vary"] == "Accept-Encoding")
            for head in fixture.heads.dropFirst() {
                #expect(head["content-encoding"] == nil)
                #expect(head["vary"] == nil)
            }
        }
    }

    @Test func aDrainedGzipStreamEndsWithItsRetryHintAndAValidTrailer() async throws {
        try await offPool {
            let fixture = try GzipFixture(acceptEncodings: ["gzip"])
            let event = rowsEvent(7, rows: 20)
            fixture.writers[0].write(event)
            fixture.server.shutdown()   // drains: a `retry:` hint, then the stream ends
            let decoder = GzipDecoder()
            var decoded: [UInt8] = []
            while true {
                let bytes = try fixture.clients[0].readAvailableBlocking()
                if bytes.isEmpty { break }
                decoded += try decoder.feed(bytes)
            }
            #expect(decoder.isFinished, "the trailer came and checked")
            let text = String(decoding: decoded, as: UTF8.self)
            #expect(text.hasPrefix("retry: 2000\n\n" + String(decoding: event, as: UTF8.self) + "retry: "))
        }
    }

    @Test func heartbeatsReachAGzipStreamDecodable() async throws {
        try await offPool {
            let fixture = try GzipFixture(acceptEncodings: ["gzip"], heartbeat: .milliseconds(100))
            defer { fixture.server.shutdown() }
            let decoder = GzipDecoder()
            var decoded: [UInt8] = []
            let deadline = ContinuousClock.now + .seconds(30 * TestTime.scale)
            while !String(decoding: decoded, as: UTF8.self).contains(": ping\n\n"), ContinuousClock.now < deadline {
                decoded += try decoder.feed(fixture.clients[0].readAvailableBlocking())
            }
            #expect(String(decoding: decoded, as: UTF8.self).hasPrefix("retry: 2000\n\n: ping\n\n"))
        }
    }
}

/// A `rows` event with `rows` table rows, like a batch's (repetitive HTML: compresses well).
func rowsEvent(_ number: Int, rows: Int) -> [UInt8] {
    var text = "event: rows\nid: \(number)\n"
    for row in 0..<rows {
        text += "data: <tr data-key=\"\(number)-\(row)\"><td>Row \(row)</td><td class=\"num\">\(row * 37 % 1000)</td></tr>\n"
    }
    return Array((text + "\n").utf8)
}

/// Reads and decodes until `count` decoded bytes came (an event the server wrote alone), bounded by the client's
/// timeout.
private func readDecoded(_ count: Int, from client: TestConnection, _ decoder: GzipDecoder) throws -> [UInt8] {
    var decoded: [UInt8] = []
    while decoded.count < count {
        let bytes = try client.readAvailableBlocking()
        guard !bytes.isEmpty else { throw TestConnection.Failure(description: "closed after \(decoded.count) bytes") }
        decoded += try decoder.feed(bytes)
    }
    return decoded
}

/// A live server whose `/events` streams are kept, and one client per entry of `acceptEncodings` (its
/// `Accept-Encoding`, or none), each past the response head. Confined to the test's thread.
private final class GzipFixture {
    let server: HTTPServer
    let clients: [TestConnection]
    let writers: [StreamWriter]
    let heads: [[String: String]]

    /// `eventLoopCount` 1 puts every stream on one loop, so that one job's writes to all of them are in one pass.
    init(acceptEncodings: [String?], heartbeat: Duration = .seconds(3_600), eventLoopCount: Int = 2) throws {
        let box = Lock<[StreamWriter]>([])
        var builder = RouterBuilder()
        builder.get("/events") { _, _ in .now(.eventStream { writer in box.withLock { $0.append(writer) } }) }
        var config = HTTPServerConfiguration()
        config.port = 0
        config.eventLoopCount = eventLoopCount
        config.heartbeatInterval = heartbeat
        server = HTTPServer(configuration: config, responder: builder.build())
        let port = try server.start()
        var clients: [TestConnection] = []
        var heads: [[String: String]] = []
        for (index, coding) in acceptEncodings.enumerated() {
            let client = try TestConnection(port: port)
            try client.send("GET /events HTTP/1.1\r\nHost: x\r\n" + (coding.map { "Accept-Encoding: \($0)\r\n" } ?? "") + "\r\n")
            heads.append(try client.readHeadBlocking().headers)
            // In order of arrival, so writers[i] is clients[i]'s.
            _ = eventuallyBlocking { box.withLock { $0.count } == index + 1 }
            clients.append(client)
        }
        self.clients = clients
        self.heads = heads
        writers = box.withLock { $0 }
    }
}
