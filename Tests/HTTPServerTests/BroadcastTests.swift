import Foundation
import Locking
import Synchronization
import Testing
import TestSupport
@testable import HTTPServer

/// `StreamWriter.broadcast`: one job per event loop carrying shared bytes. Every viewer gets the exact bytes, in
/// order with its own writes; finished and closed streams are skipped; a slow consumer is dropped mid-broadcast.
@Suite(.serialized) struct BroadcastTests {
    @Test(arguments: SendPath.allCases) func everyViewerOnEveryLoopGetsTheExactBytesInOrder(_ path: SendPath) async throws {
        try await offPool {
            let fixture = try BroadcastFixture(path: path, viewers: 6, loops: 2)
            defer { fixture.server.shutdown() }
            // Sizes from one byte to well past a socket buffer, so some sends are partial and queue a tail.
            let events = [1, 100, 2_350, 70_000, 3, 600_000, 2_350].enumerated().map { index, size in
                event(index, size: size)
            }
            for bytes in events { StreamWriter.broadcast(bytes, to: fixture.writers) }
            for client in fixture.clients {
                for bytes in events { #expect(try readExactly(bytes.count, from: client) == bytes) }
            }
            #expect(fixture.server.statistics.droppedSlowConsumers == 0)
            #expect(fixture.server.statistics.ioUringLoops == (path == .ioUring ? 2 : 0))
            #expect((fixture.server.statistics.ioUringSends > 0) == (path == .ioUring))
        }
    }

    /// Many viewers through small socket send buffers (4 KB): most sends are partial, so on the io_uring path a
    /// completion leaves a tail that `sendmsg` and EPOLLOUT continue, while later broadcasts queue behind the send
    /// in flight. Every viewer must get every event exactly once, whole and in order.
    @Test(arguments: SendPath.allCases) func manyViewersGetEveryBroadcastOnceInOrderThroughSmallSendBuffers(
        _ path: SendPath
    ) async throws {
        try await offPool {
            let fixture = try BroadcastFixture(path: path, viewers: 40, loops: 2, maxWriteBufferBytes: 4 * 1024 * 1024,
                                               sendBufferBytes: 4096)
            defer { fixture.server.shutdown() }
            let events = (0..<30).map { event($0, size: 200 + ($0 * 7_919) % 30_000) }
            for bytes in events { StreamWriter.broadcast(bytes, to: fixture.writers) }
            let expected = events.flatMap { $0 }
            for client in fixture.clients { #expect(try readExactly(expected.count, from: client) == expected) }
            // One more, read alone: nothing was doubled before it (a doubled event would shift these bytes).
            let last = event(99, size: 600)
            StreamWriter.broadcast(last, to: fixture.writers)
            for client in fixture.clients { #expect(try readExactly(last.count, from: client) == last) }
            let statistics = fixture.server.statistics
            #expect(statistics.droppedSlowConsumers == 0)
            if path == .ioUring {
                #expect(statistics.ioUringSends > 0)
                #expect(statistics.ioUringSendsContinued > 0, "no send was partial: the test proved nothing")
            } else {
                #expect(statistics.ioUringSends == 0)
            }
        }
    }

    @Test(arguments: SendPath.allCases) func aBroadcastStaysBehindWritesAlreadyQueuedForAViewer(_ path: SendPath) async throws {
        try await offPool {
            let fixture = try BroadcastFixture(path: path, viewers: 3, loops: 2, maxWriteBufferBytes: 32 * 1024 * 1024,
                                               receiveBufferBytes: [4096])
            defer { fixture.server.shutdown() }
            // Viewer 0 gets an 8 MB batch it does not read yet: past the kernel's buffers, the rest waits in the
            // connection's buffer when the changes are broadcast behind it. Then 200 rounds of (own batch, shared
            // change) per viewer.
            let big = event(-1, size: 8 * 1024 * 1024)
            fixture.writers[0].write(big)
            var expected: [[[UInt8]]] = [[big], [], []]
            for round in 0..<200 {
                for (index, writer) in fixture.writers.enumerated() {
                    let batch = Array("event: rows\ndata: viewer \(index) batch \(round)\n\n".utf8)
                    writer.write(batch)
                    expected[index].append(batch)
                }
                let change = event(round, size: 64 + round)
                StreamWriter.broadcast(change, to: fixture.writers)
                for index in expected.indices { expected[index].append(change) }
            }
            var roomy: Int32 = 4 * 1024 * 1024   // now read it quickly
            setsockopt(fixture.clients[0].fd, SOL_SOCKET, SO_RCVBUF, &roomy, socklen_t(MemoryLayout<Int32>.size))
            for (client, events) in zip(fixture.clients, expected) {
                for bytes in events { #expect(try readExactly(bytes.count, from: client) == bytes) }
            }
        }
    }

    @Test(arguments: SendPath.allCases) func finishedAndClosedStreamsAreSkipped(_ path: SendPath) async throws {
        try await offPool {
            let fixture = try BroadcastFixture(path: path, viewers: 3, loops: 1)
            defer { fixture.server.shutdown() }
            // Viewer 2's client hangs up (the fd itself is closed by the client's deinit); once the server has
            // seen it, its writer is closed.
            shutdown(fixture.clients[2].fd, Int32(SHUT_RDWR))
            _ = eventuallyBlocking { fixture.closedCount() >= 1 }
            #expect(fixture.closedCount() == 1)
            #expect(!fixture.writers[2].isOpen)
            // Viewer 1's stream is finished just before the broadcast: it must end without the change.
            fixture.writers[1].finish()
            let change = event(1, size: 2_350)
            StreamWriter.broadcast(change, to: fixture.writers)
            #expect(try readExactly(change.count, from: fixture.clients[0]) == change)
            #expect(try fixture.clients[1].isClosedByServerBlocking())
            #expect(fixture.server.statistics.droppedSlowConsumers == 0)
        }
    }

    @Test(arguments: SendPath.allCases) func aSlowConsumerIsDroppedDuringABroadcastWhileOthersGetEveryEvent(_ path: SendPath) async throws {
        try await offPool {
            let fixture = try BroadcastFixture(path: path, viewers: 2, loops: 1, maxWriteBufferBytes: 64 * 1024,
                                               receiveBufferBytes: [nil, 4096])
            defer { fixture.server.shutdown() }
            // Viewer 1 never reads: kernel buffers fill (a few MB at most), then its queue passes 64 KB.
            var sent = 0
            for round in 0..<8_000 where fixture.server.statistics.droppedSlowConsumers == 0 {
                let change = event(round, size: 2_350)
                StreamWriter.broadcast(change, to: fixture.writers)
                #expect(try readExactly(change.count, from: fixture.clients[0]) == change)
                sent += 1
            }
            #expect(fixture.server.statistics.droppedSlowConsumers == 1)
            _ = eventuallyBlocking { fixture.closedCount() >= 1 }
            #expect(fixture.closedCount() == 1)
            #expect(!fixture.writers[1].isOpen)
            #expect(fixture.writers[0].isOpen)
            // The reader goes on getting every change; the dropped writer is skipped.
            for round in sent..<sent + 20 {
                let change = event(round, size: 2_350)
                StreamWriter.broadcast(change, to: fixture.writers)
                #expect(try readExactly(change.count, from: fixture.clients[0]) == change)
            }
            #expect(fixture.server.statistics.openStreams == 1)
        }
    }

    /// Closing a connection with its send prepared submits the ring without reaping it, so a pass that closes many
    /// viewers each with a send prepared (as a forced close or a drop mid-pass does) posts more completions than the
    /// completion queue holds (8 for a ring of 2 entries: 4). The kernel keeps the rest on its overflow list, and only
    /// a call into it moves them to the queue: every completion must still be reaped, so each closed viewer's fd is
    /// closed and the last viewer's send is not left in flight for good.
    @Test func completionsPastTheCompletionQueueAreStillReaped() async throws {
        try await offPool {
            let fixture = try BroadcastFixture(path: .ioUring, viewers: 9, loops: 1, ioUringEntries: 2)
            defer { fixture.server.shutdown() }
            let change = event(0, size: 600)
            let closing = fixture.writers.dropLast().compactMap { writer -> Connection? in
                guard case .connection(let connection, _) = writer.target else { return nil }
                return connection
            }
            let last = fixture.writers[8]
            let ring = try onLoop(of: last) { () -> SendRing? in
                for connection in closing {
                    connection.writeShared(change)
                    connection.flushAtEndOfPass()  // its send prepared now, as the pass's end would
                    connection.close()             // submitted, not reaped
                }
                last.write(change)
                guard case .connection(let connection, _) = last.target else { return nil }
                return connection.sendRing
            }
            // The kernel sent these bytes at submission; their completion is what may be left on the overflow list.
            #expect(try readExactly(change.count, from: fixture.clients[8]) == change)
            let reaped = eventuallyBlocking {
                (try? onLoop(of: last) { ring?.inFlight == 0 && closing.allSatisfy { !$0.fdOpenForSend } }) == true
            }
            #expect(reaped, "a completion was left on the overflow list")
            // Unreaped, the send would stay in flight: this change would queue behind it and never be sent.
            let next = event(1, size: 300)
            StreamWriter.broadcast(next, to: [last])
            #expect(try readExactly(next.count, from: fixture.clients[8]) == next)
        }
    }

    /// A batch many viewers get at one place: one body array in every viewer's event, each with its own head
    /// (its resume id), sent through the shared-write path; each viewer gets its head then the body, whole and in
    /// order with its other writes and the broadcasts, however partly the sends go.
    @Test(arguments: SendPath.allCases) func eventsSharingOneBodyEachArriveWithTheirOwnHead(_ path: SendPath) async throws {
        try await offPool {
            let fixture = try BroadcastFixture(path: path, viewers: 4, loops: 2, maxWriteBufferBytes: 4 * 1024 * 1024)
            defer { fixture.server.shutdown() }
            var expected: [[UInt8]] = Array(repeating: [], count: fixture.writers.count)
            for (round, size) in [40, 2_350, 600_000, 5].enumerated() {
                var body = Array(event(round, size: size).dropFirst(6).dropLast(2))
                FramedSSEEvent.appendEnd(to: &body)
                for (index, writer) in fixture.writers.enumerated() {
                    let own = FramedSSEEvent(event: "rows", id: "viewer-\(index)-\(round)", body: body)
                    #expect(own.body.withUnsafeBufferPointer { $0.baseAddress } == body.withUnsafeBufferPointer { $0.baseAddress })
                    writer.send(own)
                    expected[index] += own.bytes
                }
                let change = event(100 + round, size: 700)
                StreamWriter.broadcast(change, to: fixture.writers)
                for index in expected.indices { expected[index] += change }
            }
            for (client, bytes) in zip(fixture.clients, expected) {
                let received = try readExactly(bytes.count, from: client)
                #expect(received == bytes)
                #expect(String(decoding: received.prefix(40), as: UTF8.self).hasPrefix("event: rows\nid: viewer-"))
            }
            #expect(fixture.server.statistics.droppedSlowConsumers == 0)
        }
    }

    @Test func aBroadcastFromTheLoopItselfIsWrittenAtOnce() async throws {
        try await offPool {
            let greeting = event(0, size: 500)
            var builder = RouterBuilder()
            builder.get("/events") { _, _ in
                .now(.eventStream { writer in StreamWriter.broadcast(greeting, to: [writer, writer]) })
            }
            let server = HTTPServer(configuration: BroadcastFixture.configuration(loops: 1), responder: builder.build())
            let port = try server.start()
            defer { server.shutdown() }
            let client = try TestConnection(port: port)
            try client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try client.readBlocking(until: "\r\n\r\n")
            #expect(try client.readBlocking(until: "\n\n").hasPrefix("retry:"))
            #expect(try readEvent(client) == greeting)
            #expect(try readEvent(client) == greeting)
        }
    }

    @Test func sinkWritersGetTheBytesUnlessFinished() {
        let received = Lock<[Int: [[UInt8]]]>([:])
        let writers = (0..<3).map { index in
            StreamWriter { output in
                if case .bytes(let bytes) = output { received.withLock { $0[index, default: []].append(bytes) } }
            }
        }
        writers[1].finish()
        StreamWriter.broadcast([1, 2, 3], to: writers)
        StreamWriter.broadcast([], to: writers)
        StreamWriter.broadcast([4], to: writers)
        #expect(received.withLock { $0 } == [0: [[1, 2, 3], [4]], 2: [[1, 2, 3], [4]]])
    }

    @Test func aPartlySentArrayIsQueuedFromItsOffsetWithoutACopy() {
        var buffer = WriteBuffer()
        let bytes = Array(0..<100 as Range<UInt8>)
        buffer.append(bytes, from: 40)
        #expect(buffer.count == 60)
        buffer.withUnsentBytes { #expect(Array($0) == Array(bytes[40...])) }
        buffer.append([200, 201])
        buffer.append(bytes, from: 98)   // into a non-empty buffer: the tail, after what is queued
        buffer.consume(10)
        buffer.withUnsentBytes { #expect(Array($0) == Array(bytes[50...]) + [200, 201, 98, 99]) }
        buffer.consume(buffer.count)
        buffer.append(bytes, from: 100)  // nothing left to send: nothing queued
        #expect(buffer.count == 0 && buffer.storageCapacity == 0)
    }
}

/// An SSE event of exactly `size` bytes (at least its frame), with its number in it.
func event(_ number: Int, size: Int) -> [UInt8] {
    let head = Array("data: \(number) ".utf8)
    return head + [UInt8](repeating: UInt8(ascii: "x"), count: max(0, size - head.count - 2)) + [10, 10]
}

/// Reads one event (up to and including its blank line) as bytes, through the client's buffer.
private func readEvent(_ client: TestConnection) throws -> [UInt8] {
    Array(try client.readBlocking(until: "\n\n").utf8)
}

/// Reads exactly `count` bytes straight from the socket (the fixture leaves nothing in the client's buffer).
func readExactly(_ count: Int, from client: TestConnection) throws -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
        let received = bytes[filled...].withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, 0) }
        if received < 0, errno == EINTR { continue }  // a signal (a profiler's, a sanitizer's) cut the wait short
        guard received > 0 else {
            throw TestConnection.Failure(description: "recv \(received), errno \(errno), after \(filled) of \(count) bytes")
        }
        filled += received
    }
    return bytes
}

/// A live server whose `/events` streams are kept, and `viewers` clients each holding one, past the `retry:` line.
/// Confined to the thread of the test that made it.
final class BroadcastFixture {
    let server: HTTPServer
    let clients: [TestConnection]
    let writers: [StreamWriter]
    private let closed = ClosedStreams()

    static func configuration(path: SendPath = .ioUring, loops: Int, maxWriteBufferBytes: Int = 1024 * 1024,
                              sendBufferBytes: Int32? = nil, ioUringEntries: UInt32 = 8) -> HTTPServerConfiguration {
        var config = HTTPServerConfiguration()
        config.ioUring = path != .sendmsg
        config.ioUringEntries = path == .refused ? 0 : ioUringEntries
        config.sendBufferBytes = sendBufferBytes
        config.port = 0
        config.eventLoopCount = loops
        config.maxWriteBufferBytes = maxWriteBufferBytes
        // These tests compare the exact bytes of each event; no `: ping` may fall between them, however slow the run.
        config.heartbeatInterval = .seconds(3_600)
        // A viewer that never reads must be dropped by the write-buffer limit, not cut by the kernel's user timeout
        // after 30 s of zero window (a starved sanitized run took 57 s to fill the buffers, and saw no drop).
        config.deadPeerTimeout = nil
        return config
    }

    init(path: SendPath, viewers: Int, loops: Int, maxWriteBufferBytes: Int = 1024 * 1024,
         receiveBufferBytes: [Int32?] = [], sendBufferBytes: Int32? = nil, ioUringEntries: UInt32 = 8) throws {
        let box = Lock<[ObjectIdentifier: StreamWriter]>([:])
        let closed = closed
        var builder = RouterBuilder()
        builder.get("/events") { _, _ in
            .now(.eventStream { writer in
                writer.onClose { closed.count.add(1, ordering: .relaxed) }
                box.withLock { $0[ObjectIdentifier(writer)] = writer }
            })
        }
        server = HTTPServer(configuration: Self.configuration(path: path, loops: loops,
                                                              maxWriteBufferBytes: maxWriteBufferBytes,
                                                              sendBufferBytes: sendBufferBytes,
                                                              ioUringEntries: ioUringEntries),
                            responder: builder.build())
        let port = try server.start()
        var clients: [TestConnection] = []
        var writers: [StreamWriter] = []
        // One at a time, so the n-th writer is the n-th client's.
        for index in 0..<viewers {
            let client = try TestConnection(port: port, receiveBufferBytes: receiveBufferBytes.indices.contains(index)
                                        ? receiveBufferBytes[index] : nil)
            try client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try client.readBlocking(until: "\r\n\r\n")
            _ = try client.readBlocking(until: "\n\n")  // retry:
            _ = eventuallyBlocking { box.withLock { $0.count } > index }
            let known = Set(writers.map(ObjectIdentifier.init))
            guard let writer = box.withLock({ $0.values.first { !known.contains(ObjectIdentifier($0)) } }) else {
                server.shutdown()
                throw TestConnection.Failure(description: "stream \(index) never opened")
            }
            clients.append(client)
            writers.append(writer)
        }
        self.clients = clients
        self.writers = writers
        // A stream's opening leaves in an io_uring submission, counted just after the kernel took it: a reader may
        // see the bytes first. A job on each loop runs after that count, so the test's counters start from here.
        for writer in writers { try onLoop(of: writer) {} }
    }

    func closedCount() -> Int { closed.count.load(ordering: .relaxed) }
}

/// Which way a server's sends go: batched through io_uring, or one `sendmsg` each (`ioUring` off, or refused).
enum SendPath: CaseIterable, Sendable {
    /// io_uring with a submission queue of 8 entries, so a broadcast fills it and submits as it goes.
    case ioUring
    case sendmsg
    /// io_uring asked for, and refused by the kernel (a queue of 0 entries: EINVAL, as ENOSYS or EPERM would be).
    case refused
}

/// How many of a fixture's streams have closed. Thread-safe (an atomic).
private final class ClosedStreams: Sendable {
    let count = Atomic<Int>(0)
}
