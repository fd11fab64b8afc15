import Dispatch
import Foundation
import Locking
import Testing
import TestSupport
@testable import HTTPServer

/// The end-of-pass flush (``ServerLoop``): a connection's writes made during one loop pass leave in one send at its
/// end, in order; the slow-consumer limit counts what stays unsent after that send; a connection closed with an
/// io_uring send in flight keeps its fd until the send completes.
@Suite(.serialized) struct CoalescedSendTests {
    /// Two broadcasts and a viewer's own write, queued in one pass (a job on the loop, as broadcasts that queued up
    /// behind each other run): each viewer gets all three in order, and they left in one send (2 coalesced each).
    @Test(arguments: SendPath.allCases) func writesQueuedInOnePassLeaveInOrderInOneSend(_ path: SendPath) async throws {
        try await offPool {
            let fixture = try BroadcastFixture(path: path, viewers: 3, loops: 1)
            defer { fixture.server.shutdown() }
            let (first, second) = (event(1, size: 2_350), event(2, size: 700))
            let own = fixture.writers.indices.map { event(100 + $0, size: 300 + $0) }
            let before = fixture.server.statistics
            let writers = fixture.writers
            try onLoop(of: writers[0]) {
                StreamWriter.broadcast(first, to: writers)
                StreamWriter.broadcast(second, to: writers)
                for (writer, bytes) in zip(writers, own) { writer.write(bytes) }
            }
            for (client, mine) in zip(fixture.clients, own) {
                let expected = first + second + mine
                #expect(try readExactly(expected.count, from: client) == expected)
            }
            // The counters move on the loop after the send (a reader may see the bytes first): a job queued now runs in
            // a later pass, after that pass's end-of-pass flush; on io_uring the completion may come later still.
            try onLoop(of: writers[0]) {}
            _ = eventuallyBlocking { fixture.server.statistics.sendsCoalesced - before.sendsCoalesced >= 2 * writers.count }
            let after = fixture.server.statistics
            #expect(after.sendsCoalesced - before.sendsCoalesced == 2 * writers.count)
            if path == .ioUring {
                // One entry per viewer for the three writes (the server sends nothing else meanwhile).
                #expect(after.ioUringSends - before.ioUringSends == writers.count)
            }
        }
    }

    /// A broadcast handed to the loop after the pass took its work items (here: queued by that pass's own job; in the
    /// bench, a publish arriving while the loop sends the previous one) runs in the end-of-pass flush and joins its
    /// sends: each viewer gets both events, in order, in one send, instead of a second send in the next pass.
    @Test(arguments: SendPath.allCases) func aBroadcastArrivingWhileTheLoopSendsJoinsTheSendsNotYetMade(
        _ path: SendPath
    ) async throws {
        try await offPool {
            let fixture = try BroadcastFixture(path: path, viewers: 3, loops: 1)
            defer { fixture.server.shutdown() }
            let writers = fixture.writers
            guard case .connection(_, let loop) = writers[0].target else {
                Issue.record("no loop")
                return
            }
            let (first, second) = (event(1, size: 2_350), event(2, size: 900))
            let before = fixture.server.statistics.sendsCoalesced
            try onLoop(of: writers[0]) {
                StreamWriter.broadcast(first, to: writers)
                loop.execute { StreamWriter.broadcast(second, to: writers) }
            }
            for client in fixture.clients {
                #expect(try readExactly(first.count + second.count, from: client) == first + second)
            }
            try onLoop(of: writers[0]) {}
            _ = eventuallyBlocking { fixture.server.statistics.sendsCoalesced - before >= writers.count }
            #expect(fixture.server.statistics.sendsCoalesced - before == writers.count)
        }
    }

    /// A fast reader written 200 KB in each of several passes, past a 64 KB limit, reads everything and is kept:
    /// each pass's send takes it all (a large socket send buffer). A viewer that never reads is still dropped once
    /// what stays unsent passes the limit. (On io_uring the fast reader was dropped: every write after the first of a
    /// pass queued behind the send in flight and was counted against the limit before that send was even submitted.)
    @Test(arguments: SendPath.allCases) func aFastReaderWrittenPastTheLimitInOnePassIsKeptASlowOneDropped(
        _ path: SendPath
    ) async throws {
        try await offPool {
            let fixture = try BroadcastFixture(path: path, viewers: 2, loops: 1, maxWriteBufferBytes: 64 * 1024,
                                               receiveBufferBytes: [4 * 1024 * 1024, 4096],
                                               sendBufferBytes: 4 * 1024 * 1024)
            defer { fixture.server.shutdown() }
            let writers = fixture.writers
            var rounds = 0
            // Bounded: the slow viewer's kernel buffers (a few hundred KB) fill within a few rounds.
            while fixture.server.statistics.droppedSlowConsumers == 0, rounds < 200 {
                let changes = (0..<10).map { event(rounds * 10 + $0, size: 20_000) }
                try onLoop(of: writers[0]) {
                    for change in changes { StreamWriter.broadcast(change, to: writers) }
                }
                let expected = changes.flatMap { $0 }
                #expect(try readExactly(expected.count, from: fixture.clients[0]) == expected)
                rounds += 1
            }
            #expect(fixture.server.statistics.droppedSlowConsumers == 1)
            _ = eventuallyBlocking { !writers[1].isOpen }  // counted just before its close, on the loop
            #expect(!writers[1].isOpen, "the viewer that never reads is the one dropped")
            #expect(writers[0].isOpen)
            #expect(rounds > 1, "the slow viewer was dropped in the first pass: its buffers proved nothing")
        }
    }

    /// A connection closed while its io_uring send is prepared and its submit refused (as the kernel may: EBUSY,
    /// ENOMEM) keeps its fd, the same open socket, until the send completes; only then is the fd closed. Closing it
    /// at once let the prepared entry name a number the next `accept` could reuse.
    @Test func aRefusedSubmitDoesNotCloseAnFdWithASendInFlight() async throws {
        try await offPool {
            let fixture = try BroadcastFixture(path: .ioUring, viewers: 1, loops: 1)
            defer { fixture.server.shutdown() }
            let viewer = fixture.writers[0]
            guard case .connection(let connection, _) = viewer.target, let ring = try onLoop(of: viewer, { connection.sendRing }) else {
                Issue.record("no io_uring connection")
                return
            }
            let change = event(1, size: 2_350)
            // One pass: refuse submits, write (the end-of-pass flush prepares the send; the submit is refused).
            try onLoop(of: viewer) {
                ring.refusesSubmits = true
                connection.writeShared(change)
            }
            // The test's next job can run inside that same pass, before its flush (the flush first runs work queued
            // meanwhile): wait for the prepared send instead of assuming the flush came between the two jobs.
            #expect(eventuallyBlocking { (try? onLoop(of: viewer) { connection.sendInFlight }) == true },
                    "the send was not left prepared: the test proves nothing")
            let inode = try onLoop(of: viewer) { () -> UInt in
                #expect(connection.sendInFlight)
                connection.close()  // a dropped viewer, a forced close
                return socketInode(connection.fd)
            }
            // The fd is the same socket while the entry is prepared (not closed, not reused).
            #expect(inode != 0)
            let (stillOpen, sameSocket) = try onLoop(of: viewer) { (connection.fdOpenForSend, socketInode(connection.fd)) }
            #expect(stillOpen)
            #expect(sameSocket == inode)
            // Submits work again: the next pass submits, the completion is reaped and closes the fd.
            try onLoop(of: viewer) { ring.refusesSubmits = false }
            #expect(eventuallyBlocking { (try? onLoop(of: viewer) { !connection.fdOpenForSend && ring.inFlight == 0 }) == true })
            #expect(try fixture.clients[0].isClosedByServerBlocking())
        }
    }
}

/// The inode of the socket `fd` names (0 when `fd` is not open).
private func socketInode(_ fd: Int32) -> UInt {
    var info = stat()
    guard fstat(fd, &info) == 0 else { return 0 }
    return UInt(info.st_ino)
}

extension CoalescedSendTests {
    /// A stream's opening (its response head and what it writes as it opens) leaves in one send at the end of the
    /// loop's pass, with the pass's other sends: on io_uring that is one entry of the pass's submission, not a
    /// `sendmsg` of its own (a storm of arrivals then costs one submission per pass).
    @Test(arguments: SendPath.allCases) func aStreamsOpeningLeavesInOneSendAtTheEndOfThePass(_ path: SendPath) async throws {
        try await offPool {
            let (first, second) = (event(1, size: 400), event(2, size: 20_000))
            var builder = RouterBuilder()
            builder.get("/events") { _, _ in
                .now(.eventStream { writer in
                    writer.write(first)
                    writer.write(second)
                })
            }
            let server = HTTPServer(configuration: BroadcastFixture.configuration(path: path, loops: 1),
                                    responder: builder.build())
            let port = try server.start()
            defer { server.shutdown() }
            let before = server.statistics
            let client = try TestConnection(port: port)
            defer { client.closeNow() }
            try client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try client.readBlocking(until: "\r\n\r\n")
            _ = try client.readBlocking(until: "\n\n")  // retry:
            #expect(Array(try client.readBlocking(until: "\n\n").utf8) == first)
            #expect(Array(try client.readBlocking(until: "\n\n").utf8) == second)
            // The retry field and both events were queued behind the head: two writes left with the first.
            _ = eventuallyBlocking { server.statistics.sendsCoalesced - before.sendsCoalesced >= 2 }
            let after = server.statistics
            #expect(after.sendsCoalesced - before.sendsCoalesced == 2)
            #expect(after.ioUringSends - before.ioUringSends == (path == .ioUring ? 1 : 0))
        }
    }
}
